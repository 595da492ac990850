#include <sqlite3.h>
#include "CSQLiteSetup.h"

int maeil_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

int maeil_sqlite_enable_uri_filenames(void) {
    return sqlite3_config(SQLITE_CONFIG_URI, 1);
}
