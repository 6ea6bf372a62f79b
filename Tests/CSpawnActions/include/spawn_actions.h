#ifndef C_SPAWN_ACTIONS_H
#define C_SPAWN_ACTIONS_H

#include <spawn.h>

/// Adds a file action that closes every descriptor from `from` up in the child (glibc's
/// `posix_spawn_file_actions_addclosefrom_np`, which Swift's Glibc module does not export). Returns 0 or an errno.
int c_spawn_actions_close_from(posix_spawn_file_actions_t *actions, int from);

#endif
