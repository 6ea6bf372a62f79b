import FoundationEssentials
import HTTPCore
import HTTPTesting

extension Request {
    init(_ string: String) {
        self.init(url: URL(string: string)!)
    }
}

