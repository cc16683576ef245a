#include <string.h>
#include "calsa.h"

int skygate_pcm_open_text(snd_pcm_t **pcm, const char *name, const char *text, int mode) {
    snd_config_t *config = NULL;
    snd_input_t *input = NULL;
    int err = snd_config_top(&config);
    if (err < 0) return err;
    err = snd_input_buffer_open(&input, text, (ssize_t)strlen(text));
    if (err < 0) { snd_config_delete(config); return err; }
    err = snd_config_load(config, input);
    snd_input_close(input);
    if (err < 0) { snd_config_delete(config); return err; }
    err = snd_pcm_open_lconf(pcm, name, SND_PCM_STREAM_PLAYBACK, mode, config);
    snd_config_delete(config);
    return err;
}

static void skygate_alsa_silent(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

void skygate_alsa_quiet(void) { snd_lib_error_set_handler(skygate_alsa_silent); }
