// The shim has no functions of its own; this file gives the target a source.
#include "cespeak.h"
