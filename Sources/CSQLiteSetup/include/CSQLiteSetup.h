#ifndef CSQLITESETUP_H
#define CSQLITESETUP_H

/// Turns off SQLite's memory statistics, which take a global mutex on every allocation.
/// sqlite3_config is variadic, so Swift cannot call it; this wraps the one call Maeil makes.
/// It must run before SQLite is first used in the process; later it does nothing and
/// returns SQLITE_MISUSE.
int maeil_sqlite_disable_memory_statistics(void);

/// Lets a file name be a URI ("file:PATH?immutable=1"): how a collection on a read-only file
/// system is read. Same rule: before SQLite is first used.
int maeil_sqlite_enable_uri_filenames(void);

#endif
