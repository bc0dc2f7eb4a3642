#ifndef CLUA_SUPPORT_H
#define CLUA_SUPPORT_H
int rr_support_version(void);
#endif
