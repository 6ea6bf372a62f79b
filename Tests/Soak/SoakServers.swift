import FoundationEssentials
import Glibc
import TestSupport

/// The soak's servers, all outside the soak's own bookkeeping: nginx (plain and TLS) for every kind of answer, and
/// a listener that accepts and never answers, for timeouts. The in-process `LoopbackServer` is not used: it keeps
/// every request and connection thread for its tests to inspect, which would grow the very numbers the soak
/// watches.
final class SoakServers {
    let directory: String
    let certificates: TestCertificates
    let plainPort: Int
    let tlsPort: Int
    let stallPort: Int
    private let nginx: ChildProcess
    private let stallListener: Int32

    init() throws {
        guard let executable = NginxPeer.executable else { throw PeerError.notInstalled("nginx") }
        certificates = try TestCertificates.shared()
        directory = try makeTemporaryDirectory(prefix: "asikit-soak-nginx")
        let ports = LoopbackPorts.pick(2)
        (plainPort, tlsPort) = (ports[0], ports[1])
        let fileManager = FileManager.default
        for subdirectory in ["www", "www/auth", "temp"] {
            try fileManager.createDirectory(atPath: "\(directory)/\(subdirectory)", withIntermediateDirectories: true)
        }
        let files: [String: [UInt8]] = [
            "www/gzip.txt": Array(String(repeating: "soak text ", count: 2000).utf8),
            "www/cached.bin": [UInt8](repeating: 0x63, count: 4096),
            "www/slow.bin": [UInt8](repeating: 0x73, count: 65536),
            "www/bulk.bin": [UInt8](repeating: 0x62, count: 60_000),
            "www/1k.bin": [UInt8](repeating: 0x31, count: 1024),
            "www/auth/welcome.txt": Array("welcome".utf8),
            "htpasswd": Array("soak:{PLAIN}secret\n".utf8),
        ]
        for (name, bytes) in files {
            try Data(bytes).write(to: URL(filePath: "\(directory)/\(name)"))
            chmod("\(directory)/\(name)", 0o644)
        }
        chmod(directory + "/www", 0o755)
        chmod(directory + "/www/auth", 0o755)
        let configuration = """
            \(NginxPeer.commonSettings(directory: directory))
                keepalive_requests 1000000;
                server {
                    listen 127.0.0.1:\(plainPort);
                    listen 127.0.0.1:\(tlsPort) ssl;
                    ssl_certificate \(certificates.serverCertificatePath);
                    ssl_certificate_key \(certificates.serverKeyPath);
                    root \(directory)/www;
                    location = /hello { default_type text/plain; return 200 "hello"; }
                    location = /close { keepalive_timeout 0; default_type text/plain; return 200 "bye"; }
                    location = /gzip.txt { gzip on; gzip_types text/plain; gzip_min_length 0; }
                    location = /redirect { return 302 /hello; }
                    location /auth/ { auth_basic "soak"; auth_basic_user_file \(directory)/htpasswd; }
                    location = /cookie {
                        add_header Set-Cookie "visit=$msec; Path=/";
                        default_type text/plain;
                        return 200 "cookie";
                    }
                    location = /cached.bin { add_header Cache-Control "max-age=2"; }
                    location = /slow.bin { limit_rate 2k; }
                }
            }
            """
        try Data(configuration.utf8).write(to: URL(filePath: directory + "/nginx.conf"))
        nginx = try NginxProcess.start(executable: executable, directory: directory, ports: ports)
        (stallListener, stallPort) = try Self.listen()
        let listener = stallListener
        startThread { Self.acceptAndHold(listener) }
    }

    deinit {
        stop()
    }

    /// Stops nginx and removes its directory; the soak calls it before `exit`, which runs no deinit.
    func stop() {
        nginx.terminate()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A listener on 127.0.0.1 port 0.
    private static func listen() throws -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard fd >= 0, bound == 0, Glibc.listen(fd, 64) == 0 else {
            throw PeerError.startFailed("stall listener", log: "")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Accepts connections and never answers; keeps the 16 newest open (the client has given up on older ones).
    private static func acceptAndHold(_ listener: Int32) {
        var held: [Int32] = []
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 { if errno == EINTR { continue } else { return } }
            held.append(fd)
            if held.count > 16 { close(held.removeFirst()) }
        }
    }
}
