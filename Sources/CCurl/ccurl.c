// The shim's functions are all inline in include/ccurl.h; this file gives the target a source.
#include "ccurl.h"
