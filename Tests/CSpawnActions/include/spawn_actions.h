#ifndef C_SPAWN_ACTIONS_H
#define C_SPAWN_ACTIONS_H

/// Adds a file action that closes every descriptor from `from` up in the child (glibc's
/// `posix_spawn_file_actions_addclosefrom_np`, which Swift's Glibc module does not export). `actions` is a
/// `posix_spawn_file_actions_t *`, passed untyped so that this header declares no type of `<spawn.h>`: Swift then
/// finds that type in Glibc alone, whatever the build order. Returns 0 or an errno.
int c_spawn_actions_close_from(void *actions, int from);

#endif
