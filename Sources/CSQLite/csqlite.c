// The shim's functions are inline in include/csqlite.h; SwiftPM needs one source file.
#include "csqlite.h"
