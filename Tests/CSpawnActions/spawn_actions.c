#define _GNU_SOURCE
#include "spawn_actions.h"

int c_spawn_actions_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
