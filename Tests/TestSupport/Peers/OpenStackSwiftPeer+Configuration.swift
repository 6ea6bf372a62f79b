import Glibc

extension OpenStackSwiftPeer {
    /// The hash path prefix and suffix, the one storage policy and the listing limits.
    static func swiftConf(listingLimit: Int) -> String {
        """
        [swift-hash]
        swift_hash_path_prefix = p\(UInt32.random(in: 0...UInt32.max))
        swift_hash_path_suffix = s\(UInt32.random(in: 0...UInt32.max))

        [storage-policy:0]
        name = Policy-0
        default = yes

        [swift-constraints]
        container_listing_limit = \(listingLimit)
        account_listing_limit = \(listingLimit)

        """
    }

    /// Every server's `[DEFAULT]`: one process each (`workers = 0`), the device directory without mount checks, long
    /// connect, node and container-update timeouts (no updater runs, so a late update would leave a listing short;
    /// Swift's 0.5 s connect timeout is missed when the suite keeps both cores busy), and the syslog copies sent to a
    /// UDP port nobody reads.
    static func common(directory: String, syslogPort: Int) -> String {
        """
        [DEFAULT]
        bind_ip = 127.0.0.1
        workers = 0
        user = \(userName)
        swift_dir = \(directory)/etc
        devices = \(directory)/srv
        mount_check = false
        disable_fallocate = true
        conn_timeout = 10
        node_timeout = 30
        container_update_timeout = 30
        log_udp_host = 127.0.0.1
        log_udp_port = \(syslogPort)
        """
    }

    /// An account, container or object server.
    static func backendConf(common: String, server: String, port: Int) -> String {
        """
        \(common)
        bind_port = \(port)

        [pipeline:main]
        pipeline = healthcheck \(server)-server

        [app:\(server)-server]
        use = egg:swift#\(server)

        [filter:healthcheck]
        use = egg:swift#healthcheck

        """
    }

    /// More tempauth accounts, `t1` … `t9` (user `tN:tester`, key `testing`, admin of `AUTH_tN`), so tests sharing
    /// one server each have an account of their own.
    package static let extraAccounts = (1...9).map { "t\($0)" }

    /// The proxy: Swift's sample pipeline, trimmed (tempurl before tempauth, copy before slo and dlo).
    ///
    /// A test machine is not a cluster, so nothing is error-limited: by default ten timeouts within a minute take a
    /// backend or memcached out for a minute, and tempauth answers 503 to every token request meanwhile (seen when the
    /// suite ran with both cores busy). Memcached's timeouts are long for the same reason.
    static func proxyConf(common: String, port: Int, memcached: Int) -> String {
        let filters = [
            "catch_errors", "gatekeeper", "healthcheck", "proxy-logging", "listing_formats", "bulk",
            "tempurl", "copy", "slo", "dlo",
        ]
        return """
            \(common)
            bind_port = \(port)

            [pipeline:main]
            pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats bulk tempurl tempauth \
            copy slo dlo proxy-logging proxy-server

            [app:proxy-server]
            use = egg:swift#proxy
            account_autocreate = true
            error_suppression_limit = 1000000

            [filter:tempauth]
            use = egg:swift#tempauth
            user_test_tester = testing .admin
            user_test_tester3 = testing3
            user_test2_tester2 = testing2 .admin
            \(extraAccounts.map { "user_\($0)_tester = testing .admin" }.joined(separator: "\n"))

            [filter:cache]
            use = egg:swift#memcache
            memcache_servers = 127.0.0.1:\(memcached)
            connect_timeout = 10
            pool_timeout = 30
            io_timeout = 30
            error_suppression_interval = 0

            """
                + filters.map { "[filter:\($0)]\nuse = egg:swift#\($0.replacing("-", with: "_"))\n" }
                .joined()
    }
}
