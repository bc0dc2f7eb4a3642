/*
 * The build id of a loaded image (the executable or a shared library): what the proof store
 * (RulesEngine's ProofStore) keys its files by, so that proofs made by one build of the code are
 * never read by another. Read from the image in memory (its PT_NOTE segments), not from its file,
 * which a build may have replaced since the process started. Linux only (dl_iterate_phdr);
 * elsewhere there is none.
 */
#if defined(__linux__)
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#endif
#include <string.h>
#include "CLuaSupport.h"

#if defined(__linux__)
struct rr_build_id_search {
    uintptr_t address;
    unsigned char *out;
    size_t capacity;
    size_t length;
};

/* Called for each loaded image: stops (1) at the one that holds the address, with its build id
   copied out when it has one. */
static int rr_build_id_visit(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct rr_build_id_search *search = data;
    int holds = 0;
    for (int i = 0; i < info->dlpi_phnum && !holds; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + segment->p_vaddr;
        holds = segment->p_type == PT_LOAD && search->address >= start && search->address - start < segment->p_memsz;
    }
    if (!holds) return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type != PT_NOTE) continue;
        /* Notes are padded to 4 bytes, or to 8 in a segment aligned so. */
        size_t align = segment->p_align == 8 ? 8 : 4;
        const unsigned char *note = (const unsigned char *)(info->dlpi_addr + segment->p_vaddr);
        size_t left = segment->p_memsz;
        while (left >= sizeof(ElfW(Nhdr))) {
            const ElfW(Nhdr) *header = (const ElfW(Nhdr) *)note;
            size_t name = (header->n_namesz + align - 1) & ~(align - 1);
            size_t desc = (header->n_descsz + align - 1) & ~(align - 1);
            if (name > left || desc > left || sizeof *header + name + desc > left) break;
            if (header->n_type == NT_GNU_BUILD_ID && header->n_namesz == 4 && memcmp(note + sizeof *header, "GNU", 4) == 0 &&
                header->n_descsz > 0 && header->n_descsz <= search->capacity) {
                memcpy(search->out, note + sizeof *header + name, header->n_descsz);
                search->length = header->n_descsz;
                return 1;
            }
            note += sizeof *header + name + desc;
            left -= sizeof *header + name + desc;
        }
    }
    return 1;
}
#endif

size_t rr_build_id(const void *address, unsigned char *out, size_t capacity) {
#if defined(__linux__)
    struct rr_build_id_search search = {(uintptr_t)address, out, capacity, 0};
    dl_iterate_phdr(rr_build_id_visit, &search);
    return search.length;
#else
    (void)address;
    (void)out;
    (void)capacity;
    return 0;
#endif
}

const void *rr_symbol_address(const char *name) {
#if defined(__linux__)
    return dlsym(RTLD_DEFAULT, name);
#else
    (void)name;
    return NULL;
#endif
}
