// espeak-ng for Swift (Debian's libespeak-ng-dev): its header for the types and constants, and the
// five functions the voice calls, loaded with dlopen on first use. Linked directly, libespeak-ng
// would bring its audio back ends (pcaudio, PulseAudio, libsndfile and their codecs, X11, D-Bus:
// some 25 libraries) into every gatewayd process, voice or not: start-up time and resident memory
// on a Pi. Each wrapper has the signature of the espeak-ng function it forwards to.
#ifndef SKYGATE_CESPEAK_H
#define SKYGATE_CESPEAK_H
#include <stddef.h>
#include <espeak-ng/speak_lib.h>

/// Loads libespeak-ng.so.1 (once; thread-safe): 1 when it and its five functions were found, else 0.
int skygate_espeak_load(void);
/// Why the last load failed (dlerror's text), or NULL.
const char *skygate_espeak_load_error(void);

int skygate_espeak_Initialize(espeak_AUDIO_OUTPUT output, int buflength, const char *path, int options);
void skygate_espeak_SetSynthCallback(t_espeak_callback *callback);
espeak_ERROR skygate_espeak_SetVoiceByName(const char *name);
espeak_ERROR skygate_espeak_SetParameter(espeak_PARAMETER parameter, int value, int relative);
espeak_ERROR skygate_espeak_Synth(const void *text, size_t size, unsigned int position, espeak_POSITION_TYPE position_type,
                                  unsigned int end_position, unsigned int flags, unsigned int *unique_identifier, void *user_data);
#endif
