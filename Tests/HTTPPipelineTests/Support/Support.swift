import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting

func url(_ string: String) -> URL { URL(string: string)! }

extension Request {
    init(_ string: String, method: HTTPRequest.Method = .get) {
        self.init(url: URL(string: string)!, method: method)
    }
}

/// A transport that answers by path with fixed responses and records the requests.
func routes(_ table: [String: @Sendable (Request) -> Response]) -> ScriptedTransport {
    ScriptedTransport { request, _ in
        let key = "\(request.url.host() ?? "")\(request.url.path())"
        guard let route = table[key] ?? table[request.url.path()] else { return .text("no route \(key)", status: 404) }
        return route(request)
    }
}

func fields(_ pairs: [(HTTPField.Name, String)]) -> HTTPFields {
    var fields = HTTPFields()
    for (name, value) in pairs { fields.append(HTTPField(name: name, value: value)) }
    return fields
}
