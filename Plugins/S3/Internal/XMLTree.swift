import CLibXML2
import HTTPCore

/// An element of a parsed XML document: its local name, its text, its child elements. Made by libxml2 (the
/// plug-in writes no XML parser); S3's documents are small (a list page is at most 1,000 entries).
struct XMLTree: Sendable {
    var name: String
    var text: String
    var children: [XMLTree]

    /// The first child named `name`.
    func child(_ name: String) -> XMLTree? { children.first { $0.name == name } }

    /// Every child named `name`.
    func children(_ name: String) -> [XMLTree] { children.filter { $0.name == name } }

    /// The text of the first child named `name`.
    func text(_ name: String) -> String? { child(name)?.text }

    /// libxml2's functions, loaded on first use (the plug-in does not link it; see `CLibXML2/shim.h`).
    private static let libxml2: c_libxml2_functions? = {
        let functions = c_libxml2_load()
        guard let initParser = functions.initParser else { return nil }
        initParser()
        return functions
    }()

    /// The largest document parsed: 8 MiB. S3's largest answers (a list page of 1,000 keys of 1,024 bytes, or
    /// 10,000 buckets) stay under 2 MiB; a larger body is refused with a clear message before libxml2 builds a tree
    /// several times its size. (libxml2 2.9 without `XML_PARSE_HUGE` refuses any document over 10,000,000 bytes,
    /// 10 MB per text node and 256 levels anyway, but only as "not well-formed".)
    static let maxBytes = 8 << 20

    /// Parses a document with libxml2: no network access, no entity substitution, errors not printed.
    /// - Throws: ``ClientError`` with ``ClientError/Code/protocolViolation`` when the bytes are not well-formed XML
    ///   or are more than ``maxBytes``, or ``ClientError/Code/invalidConfiguration`` when the system has no libxml2
    ///   (`libxml2.so.16` or `libxml2.so.2`) to load.
    static func parse(_ bytes: [UInt8]) throws -> XMLTree {
        guard bytes.count <= maxBytes else {
            throw ClientError(.protocolViolation, message: "The S3 response body is larger than \(maxBytes) bytes")
        }
        guard let libxml2, let readMemory = libxml2.readMemory, let freeDoc = libxml2.freeDoc,
            let rootElement = libxml2.docGetRootElement
        else {
            throw ClientError(.invalidConfiguration, message: "libxml2 cannot be loaded to read S3's XML (apt install libxml2)")
        }
        let options = Int32(C_XML_PARSE_NONET | C_XML_PARSE_NOERROR | C_XML_PARSE_NOWARNING)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    readMemory($0, Int32(buffer.count), nil, "UTF-8", options)
                }
            }
        }
        guard let document else {
            throw ClientError(.protocolViolation, message: "The S3 response body is not well-formed XML")
        }
        defer { freeDoc(document) }
        guard let root = rootElement(document) else {
            throw ClientError(.protocolViolation, message: "The S3 response body has no XML root element")
        }
        return tree(root)
    }

    private static func tree(_ node: UnsafeMutablePointer<c_xml_node>) -> XMLTree {
        var element = XMLTree(name: String(cString: node.pointee.name), text: "", children: [])
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case Int32(C_XML_ELEMENT_NODE):
                element.children.append(tree(current))
            case Int32(C_XML_TEXT_NODE), Int32(C_XML_CDATA_SECTION_NODE):
                if let content = current.pointee.content { element.text += String(cString: content) }
            default:
                break
            }
            child = current.pointee.next
        }
        return element
    }
}
