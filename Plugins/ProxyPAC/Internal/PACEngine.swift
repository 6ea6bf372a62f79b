import CDuktape
import HTTPCore
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// One Duktape heap with the PAC utilities and one PAC script loaded. Confined to its ``PACEngineThread``: it is
/// created, used and destroyed there, and never shared.
final class PACEngine {
    /// Why an evaluation gave no answer.
    enum Failure: Error, Equatable {
        case script(String)
        case timedOut
        case outOfMemory
    }

    private let engine: OpaquePointer
    private let host: PACEngineHost
    private let hostContext: Unmanaged<PACEngineHost>
    private let timeLimit: UInt32

    /// Makes a heap and loads the utilities and `script` into it.
    /// - Parameters:
    ///   - script: The PAC file's text.
    ///   - configuration: Limits and DNS settings.
    ///   - host: The DNS cache and the log the script's native calls use.
    /// - Throws: ``Failure`` when the script does not compile, throws, or exceeds a limit at load time.
    init(script: String, configuration: PACProxyResolver.Configuration, host: PACEngineHost) throws(Failure) {
        self.host = host
        timeLimit = UInt32(clamping: configuration.evaluationTimeLimit.milliseconds)
        hostContext = Unmanaged.passRetained(host)
        let callbacks = asi_pac_host(
            context: hostContext.toOpaque(),
            resolve: { context, name, all, out, capacity in
                guard let context, let name, let out else { return -1 }
                let host = Unmanaged<PACEngineHost>.fromOpaque(context).takeUnretainedValue()
                return host.resolve(String(cString: name), all: all != 0, into: out, capacity: capacity)
            },
            my_address: { context, all, out, capacity in
                guard let context, let out else { return -1 }
                let host = Unmanaged<PACEngineHost>.fromOpaque(context).takeUnretainedValue()
                return host.myAddress(all: all != 0, into: out, capacity: capacity)
            },
            alert: { context, message in
                guard let context, let message else { return }
                Unmanaged<PACEngineHost>.fromOpaque(context).takeUnretainedValue().alert(String(cString: message))
            })
        guard let made = asi_pac_engine_create(configuration.memoryLimit, callbacks) else {
            hostContext.release()
            throw .outOfMemory
        }
        engine = made
        try Self.check(evaluate(PACUtilities.script))
        try Self.check(evaluate(script))
    }

    deinit {
        asi_pac_engine_destroy(engine)
        hostContext.release()
    }

    /// Calls `findProxyForURL(url, host)`.
    /// - Parameters:
    ///   - url: The URL as the script sees it.
    ///   - hostName: The host as the script sees it.
    /// - Returns: The script's answer.
    /// - Throws: ``Failure``.
    func findProxy(url: String, host hostName: String) throws(Failure) -> String {
        var answer: UnsafeMutablePointer<CChar>?
        var message = [CChar](repeating: 0, count: 512)
        host.beginCall(timeLimit: timeLimit)
        let code = asi_pac_engine_find(engine, url, hostName, timeLimit, &answer, &message, message.count)
        defer { free(answer) }
        let text = answer.map { String(cString: $0) } ?? ""
        // Any other value is taken as its string conversion ("undefined", "5"), as pacparser does; the parser
        // finds no route in such text, so it means DIRECT.
        if code == Int32(ASI_PAC_NOT_A_STRING) { return text }
        try Self.check(code, message: message)
        return text
    }

    /// The bytes the heap holds.
    var memoryUsed: Int { asi_pac_engine_memory_used(engine) }

    private func evaluate(_ source: String) -> (Int32, [CChar]) {
        var message = [CChar](repeating: 0, count: 512)
        var utf8 = Array(source.utf8)
        host.beginCall(timeLimit: timeLimit)
        let code = utf8.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                asi_pac_engine_eval(engine, chars.baseAddress, chars.count, timeLimit, &message, message.count)
            }
        }
        utf8.removeAll()
        return (code, message)
    }

    private static func check(_ result: (Int32, [CChar])) throws(Failure) {
        try check(result.0, message: result.1)
    }

    private static func check(_ code: Int32, message: [CChar]) throws(Failure) {
        switch code {
        case Int32(ASI_PAC_OK): return
        case Int32(ASI_PAC_TIMED_OUT): throw .timedOut
        case Int32(ASI_PAC_OUT_OF_MEMORY): throw .outOfMemory
        default:
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw .script(text)
        }
    }
}

extension Duration {
    /// The duration in whole milliseconds, at least 1 for a positive duration.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        let value = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return value == 0 && attoseconds > 0 ? 1 : value
    }
}
