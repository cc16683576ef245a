// ALSA for Swift (Debian's libasound2-dev). One helper: opening a PCM from a configuration given
// as text (a test's `file`/`null` PCM, no sound card needed), which takes several calls in C.
#ifndef SKYGATE_CALSA_H
#define SKYGATE_CALSA_H
#include <alsa/asoundlib.h>

/// Opens playback PCM `name` defined in the ALSA configuration `text` (asoundrc syntax) instead
/// of the system's. Returns 0 or a negative errno, as snd_pcm_open does.
int skygate_pcm_open_text(snd_pcm_t **pcm, const char *name, const char *text, int mode);

/// Stops alsa-lib printing its own error lines to stderr (the variadic handler Swift cannot
/// write): the gateway says what failed once, in its own words, instead of eight lines a retry.
void skygate_alsa_quiet(void);
#endif
