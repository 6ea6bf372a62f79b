package import FoundationEssentials
import Glibc

/// A real S3-compatible server, moto (`python3 -m moto.server` from PyPI `moto[server]`), on 127.0.0.1 with
/// signature checking on: started with `INITIAL_NO_AUTH_ACTION_COUNT=3`, it lets three unauthenticated calls
/// through, which create an IAM user with an allow-all policy and its access key (with boto3, which moto
/// installs: signed independently of ASIKit), and then checks the SigV4 signature of every request.
///
/// Use ``withMoto(_:)`` so the server stops even when the test throws. Skipped when moto is not installed unless
/// `ASI_REQUIRE_PEERS=1`. Starting takes a few seconds (Python imports), so share one peer within a test.
package final class MotoPeer {
    /// The port it listens on.
    package let port: Int
    /// The temporary directory with its log.
    package var directory: String { home.directory }
    /// The access key ID the server accepts.
    package private(set) var accessKeyID = ""
    /// The secret of ``accessKeyID``.
    package private(set) var secretAccessKey = ""
    private let home: PeerHome

    /// The Python interpreter, or `nil`.
    package static let python: String? = ChildProcess.find("python3")

    /// Whether `python3` finds moto (with its server's Flask) and boto3.
    package static let isInstalled: Bool = {
        guard let python, let directory = try? makeTemporaryDirectory(prefix: "asikit-moto-probe") else { return false }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let status = try? ChildProcess.run(python, ["-c", PythonModules.probe(["moto", "boto3", "flask"])],
                                           logPath: directory + "/log")
        return status == 0
    }()

    /// Whether the moto tests should run: moto is installed, or `ASI_REQUIRE_PEERS=1` asks for a failure when it
    /// is not. Use with `.enabled(if: MotoPeer.shouldRun)`.
    package static let shouldRun = isInstalled || PeerEnvironment.peersRequired

    /// Whether the server checks signatures (moto's default is not to).
    package let checksSignatures: Bool

    private init(port: Int, directory: String, checksSignatures: Bool) {
        self.port = port
        home = PeerHome(directory: directory)
        self.checksSignatures = checksSignatures
    }

    /// Starts moto, waits until it answers and owns its port, and creates the access key.
    /// - Parameter checksSignatures: Whether moto checks signatures; without, any key is accepted (moto 5.2 cannot
    ///   check presigned URLs, and rejects any signature over a percent-encoded path or query, boto3's too).
    /// - Returns: The running peer.
    /// - Throws: ``PeerError`` when moto is missing, fails to start, or does not answer
    ///   within ``PeerEnvironment/startupTimeout``.
    package static func start(checksSignatures: Bool = true) throws -> MotoPeer {
        guard let python, isInstalled else { throw PeerError.notInstalled("moto (pip install 'moto[server]')") }
        return try PeerLaunch.retryingPortConflicts(
            "moto", attempts: 3, portCount: 1, directoryPrefix: "asikit-moto",
            make: { MotoPeer(port: $0[0], directory: $1, checksSignatures: checksSignatures) },
            launch: { try $0.launch(python: python) },
            stop: { $0.stop() })
    }

    /// The service URL, `http://127.0.0.1:<port>`.
    package var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Stops moto (`SIGTERM`, then `SIGKILL` after five seconds) and deletes the temporary directory.
    package func stop() {
        home.stop()
    }

    private func launch(python: String) throws {
        var launch = PeerLaunch(
            name: "moto", executable: python, arguments: ["-m", "moto.server", "-H", "127.0.0.1", "-p", String(port)],
            directory: directory, ports: [port])
        launch.environment = ["PYTHONDONTWRITEBYTECODE": "1"]
            .merging(checksSignatures ? ["INITIAL_NO_AUTH_ACTION_COUNT": "3"] : [:]) { $1 }
        launch.isReady = { [port] _ in LoopbackPorts.statusCode(port: port, path: "/moto-api/") == 200 }
        launch.pollMicroseconds = 100_000
        home.process = try launch.start()
        if checksSignatures {
            try createAccessKey(python: python)
        } else {
            (accessKeyID, secretAccessKey) = ("AKIDEXAMPLE", "unchecked")
        }
    }

    /// The three unauthenticated calls: an IAM user, an allow-all inline policy, and its access key.
    private func createAccessKey(python: String) throws {
        let script = """
            import boto3, json, sys
            iam = boto3.client("iam", endpoint_url=sys.argv[1], region_name="us-east-1",
                               aws_access_key_id="AKIDEXAMPLE", aws_secret_access_key="provisioning")
            iam.create_user(UserName="asi")
            policy = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}
            iam.put_user_policy(UserName="asi", PolicyName="all", PolicyDocument=json.dumps(policy))
            key = iam.create_access_key(UserName="asi")["AccessKey"]
            print("KEY", key["AccessKeyId"], key["SecretAccessKey"])
            """
        let log = directory + "/iam.log"
        let status = try ChildProcess.run(python, ["-c", script, url.absoluteString], logPath: log)
        let output = String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self)
        try? FileManager.default.removeItem(atPath: log)
        guard status == 0, let line = output.split(separator: "\n").last(where: { $0.hasPrefix("KEY ") }) else {
            throw PeerError.startFailed("moto's IAM access key (exit \(status))", log: String(output.suffix(2000)))
        }
        let words = line.split(separator: " ")
        accessKeyID = String(words[1])
        secretAccessKey = String(words[2])
    }
}

/// Starts moto, runs `body`, and stops moto, also when `body` throws.
/// - Parameters:
///   - checksSignatures: Whether moto checks signatures (see ``MotoPeer/start(checksSignatures:)``).
///   - body: The test.
/// - Returns: What `body` returns.
/// - Throws: ``PeerError`` when moto cannot be started, or what `body` throws.
package func withMoto<Result>(
    checksSignatures: Bool = true, _ body: (MotoPeer) async throws -> Result
) async throws -> Result {
    try await withPeer(start: { try MotoPeer.start(checksSignatures: checksSignatures) }, stop: { $0.stop() }, body)
}
