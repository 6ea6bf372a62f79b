import CSpawnActions
package import Glibc

/// Makes a child started with `actions` inherit only its standard descriptors (0, 1 and 2, as the actions before
/// this one set them): every other descriptor of the test process is closed in the child.
///
/// The test process holds sockets of its in-process servers, and `accept` does not set close-on-exec. A peer
/// (nginx, a proxy, `curl`) that inherited a server's accepted socket kept that connection open after the server
/// closed it, so the client waited for a close that never came, until its 600 s timeout (decision 0038).
/// - Parameter actions: The spawn's file actions, after the standard descriptors are set up.
package func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
    let result = c_spawn_actions_close_from(&actions, 3)
    precondition(result == 0, "posix_spawn_file_actions_addclosefrom_np failed: errno \(result)")
}
