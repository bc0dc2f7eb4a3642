import GRDB
import RulesModel

/// SQLite storage of the data model.
public enum RulesStoreModule {}
