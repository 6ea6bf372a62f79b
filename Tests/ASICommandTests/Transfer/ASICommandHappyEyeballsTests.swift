import FoundationEssentials
import TestSupport
import Testing

/// Happy Eyeballs v2 in a private network namespace (`unshare -rnm`): `happy.test` resolves (through a
/// bind-mounted `/etc/hosts`) to `fd00::2`, an IPv6 address whose frames go to a MAC nobody owns on a veth pair
/// and vanish silently, and to `10.200.0.1`, where a small HTTP server answers. `asi` and curl run inside as child
/// processes of the namespace's shell.
@Suite("asi: Happy Eyeballs in a network namespace", .serialized)
struct ASICommandHappyEyeballsTests {
    static let unshare = ChildProcess.find("unshare")
    static let ip = ChildProcess.find("ip")
    static let python = ChildProcess.find("python3")

    /// Whether this machine lets an unprivileged user make user, network and mount namespaces.
    static let namespacesWork: Bool = {
        guard let unshare, ip != nil, python != nil, let directory = try? DataPath.directory() else { return false }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return (try? ChildProcess.run(unshare, ["-rnm", "true"], logPath: directory + "/probe.log")) == 0
    }()

    /// The namespace's set-up, the server, and the clients; each client's exit status and output land in files.
    static func script(directory: String, clients: [(name: String, command: String)]) -> String {
        let runs = clients.map { client in
            "\(client.command) -o \(directory)/\(client.name).out http://happy.test:$port/hello.txt "
                + "2>\(directory)/\(client.name).err; echo $? > \(directory)/\(client.name).status"
        }.joined(separator: "\n")
        return """
            set -e
            ip link set lo up
            ip link add veth0 type veth peer name veth1
            ip link set veth0 up
            ip link set veth1 up
            ip -6 addr add fd00::1/64 dev veth0 nodad
            ip addr add 10.200.0.1/24 dev veth0
            # fd00::2 "is" on veth0's link at a MAC nobody owns: its SYNs leave and are never answered.
            ip neigh add fd00::2 lladdr 02:00:00:00:00:99 dev veth0 nud permanent
            printf 'fd00::2 happy.test\\n10.200.0.1 happy.test\\n' > \(directory)/hosts
            mount --bind \(directory)/hosts /etc/hosts
            printf 'hello\\n' > \(directory)/hello.txt
            \(python!) - \(directory) <<'PY' &
            import http.server, os, sys
            os.chdir(sys.argv[1])
            class Quiet(http.server.SimpleHTTPRequestHandler):
                def log_message(self, *args): pass
            server = http.server.HTTPServer(("10.200.0.1", 0), Quiet)
            open("port.tmp", "w").write(str(server.server_address[1])); os.rename("port.tmp", "port")
            server.serve_forever()
            PY
            server=$!
            for _ in $(seq 1 600); do [ -f \(directory)/port ] && break; sleep 0.1; done
            port=$(cat \(directory)/port)
            set +e
            \(runs)
            kill $server
            """
    }

    struct Result {
        var status: Int32?
        var output: String
        var error: String
    }

    static func run(_ clients: [(name: String, command: String)]) throws -> [String: Result] {
        let directory = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try DataPath.write(Array(script(directory: directory, clients: clients).utf8), to: directory + "/run.sh")
        let status = try ChildProcess.run(unshare!, ["-rnm", "/bin/sh", directory + "/run.sh"],
                                          logPath: directory + "/run.log")
        let log = String(decoding: DataPath.read(directory + "/run.log") ?? [], as: UTF8.self)
        try #require(status == 0, "the namespace script failed: \(log)")
        var results: [String: Result] = [:]
        for client in clients {
            func text(_ suffix: String) -> String {
                String(decoding: DataPath.read("\(directory)/\(client.name).\(suffix)") ?? [], as: UTF8.self)
            }
            results[client.name] = Result(
                status: Int32(text("status").filter(\.isNumber)), output: text("out"), error: text("err"))
        }
        return results
    }

    @Test(.enabled(if: namespacesWork, "needs unshare -rnm (user, network and mount namespaces), ip and python3"))
    func aBlackholedIPv6AddressCostsOneAttemptDelayNotTheConnectTimeout() async throws {
        let asi = ASICommandRun.binary
        var clients = [
            // -m 20: without the race, the blackholed IPv6 attempt would hold the transfer until -m ends it.
            (name: "asi", command: "\(asi) -s -S --connect-timeout 30 -m 20 --happy-eyeballs-timeout-ms 250"),
            // The same race with a delay longer than -m: IPv6 goes first and is never answered, so this fails
            // with 28. It proves the address is really blackholed and really tried first.
            (name: "asiSlowRace", command: "\(asi) -s -S -m 3 --happy-eyeballs-timeout-ms 60000"),
            (name: "asiDefault", command: "\(asi) -s -S --connect-timeout 30 -m 20"),
        ]
        if let curl = ChildProcess.find("curl") {
            clients.append((name: "curl", command: "\(curl) -s -S -m 20 --happy-eyeballs-timeout-ms 250"))
        }
        let results = try await offPool { try Self.run(clients) }
        let fast = try #require(results["asi"])
        #expect(fast.status == 0 && fast.output == "hello\n", "\(fast.error)")
        let slow = try #require(results["asiSlowRace"])
        #expect(slow.status == 28, "\(slow.error)")
        let standard = try #require(results["asiDefault"])
        #expect(standard.status == 0 && standard.output == "hello\n", "default delay: \(standard.error)")
        if let curl = results["curl"] {
            #expect(curl.status == fast.status && curl.output == fast.output, "curl: \(curl.error)")
        }
    }
}
