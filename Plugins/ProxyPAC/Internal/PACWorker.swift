import Logging

/// The state of one engine thread: the engine for the current script, rebuilt when the script changes.
final class PACWorker {
    private let configuration: PACProxyResolver.Configuration
    private let host: PACEngineHost
    private var engine: PACEngine?
    private var loaded: (generation: Int, failure: PACEngine.Failure?)?

    /// Creates the worker (on its thread).
    /// - Parameters:
    ///   - configuration: Limits and DNS settings.
    ///   - logger: Where `alert` writes.
    init(configuration: PACProxyResolver.Configuration, logger: Logger) {
        self.configuration = configuration
        host = PACEngineHost(configuration: configuration, logger: logger)
    }

    /// Evaluates `FindProxyForURL` in the engine loaded with `script`, loading it first when needed.
    /// - Parameters:
    ///   - script: The PAC script and its generation (a new fetch is a new generation).
    ///   - url: The URL as the script sees it.
    ///   - hostName: The host as the script sees it.
    /// - Returns: The script's answer, or why there is none.
    func findProxy(script: PACScript, url: String, host hostName: String) -> Result<String, PACEngine.Failure> {
        if loaded?.generation != script.generation {
            engine = nil
            do {
                engine = try PACEngine(script: script.text, configuration: configuration, host: host)
                loaded = (script.generation, nil)
            } catch {
                loaded = (script.generation, error)
            }
        }
        if let failure = loaded?.failure { return .failure(failure) }
        guard let engine else { return .failure(.outOfMemory) }
        do {
            return .success(try engine.findProxy(url: url, host: hostName))
        } catch {
            return .failure(error)
        }
    }
}
