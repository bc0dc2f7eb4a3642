/// The data model of the four apps of the seed documents, as plain Swift value types.
public enum RulesModel {}
