// espeak-ng for Swift (Debian's libespeak-ng-dev): the synthesis API as it is; nothing is wrapped
// but the header path, so the Swift side reads like espeak-ng's own documentation.
#ifndef SKYGATE_CESPEAK_H
#define SKYGATE_CESPEAK_H
#include <espeak-ng/speak_lib.h>
#endif
