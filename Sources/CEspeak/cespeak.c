// libespeak-ng loaded on first use (see cespeak.h for why), its five functions looked up once.
#include "cespeak.h"
#include <dlfcn.h>
#include <pthread.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static const char *failure;
static int (*initialize)(espeak_AUDIO_OUTPUT, int, const char *, int);
static void (*set_synth_callback)(t_espeak_callback *);
static espeak_ERROR (*set_voice_by_name)(const char *);
static espeak_ERROR (*set_parameter)(espeak_PARAMETER, int, int);
static espeak_ERROR (*synth)(const void *, size_t, unsigned int, espeak_POSITION_TYPE, unsigned int, unsigned int, unsigned int *, void *);

static void load(void) {
    void *library = dlopen("libespeak-ng.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) { failure = dlerror(); return; }
    initialize = dlsym(library, "espeak_Initialize");
    set_synth_callback = dlsym(library, "espeak_SetSynthCallback");
    set_voice_by_name = dlsym(library, "espeak_SetVoiceByName");
    set_parameter = dlsym(library, "espeak_SetParameter");
    synth = dlsym(library, "espeak_Synth");
    if (!initialize || !set_synth_callback || !set_voice_by_name || !set_parameter || !synth) {
        failure = "libespeak-ng.so.1 lacks an espeak_ function the voice needs (too old?)";
        return;
    }
    loaded = 1;
}

int skygate_espeak_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *skygate_espeak_load_error(void) { return loaded ? NULL : failure; }

int skygate_espeak_Initialize(espeak_AUDIO_OUTPUT output, int buflength, const char *path, int options) {
    return skygate_espeak_load() ? initialize(output, buflength, path, options) : -1;
}

void skygate_espeak_SetSynthCallback(t_espeak_callback *callback) {
    if (skygate_espeak_load()) set_synth_callback(callback);
}

espeak_ERROR skygate_espeak_SetVoiceByName(const char *name) {
    return skygate_espeak_load() ? set_voice_by_name(name) : EE_INTERNAL_ERROR;
}

espeak_ERROR skygate_espeak_SetParameter(espeak_PARAMETER parameter, int value, int relative) {
    return skygate_espeak_load() ? set_parameter(parameter, value, relative) : EE_INTERNAL_ERROR;
}

espeak_ERROR skygate_espeak_Synth(const void *text, size_t size, unsigned int position, espeak_POSITION_TYPE position_type,
                                  unsigned int end_position, unsigned int flags, unsigned int *unique_identifier, void *user_data) {
    return skygate_espeak_load() ? synth(text, size, position, position_type, end_position, flags, unique_identifier, user_data)
                                 : EE_INTERNAL_ERROR;
}
