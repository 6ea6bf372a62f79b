/// A short list that keeps its first element inline: a list of one, the common case in a queue (a request ends and
/// the next one starts), costs no heap allocation; further elements go to an array.
struct InlineList<Element> {
    private var head: Element?
    private var tail: [Element] = []

    init() {}

    /// Whether the list has no element.
    var isEmpty: Bool { head == nil }

    /// Adds an element at the end.
    mutating func append(_ element: Element) {
        if head == nil { head = element } else { tail.append(element) }
    }

    /// Removes and returns the first element.
    mutating func popFirst() -> Element? {
        guard let first = head else { return nil }
        head = tail.isEmpty ? nil : tail.removeFirst()
        return first
    }

    /// The elements that `transform` maps to a value, in order, as an inline list.
    func compactMapInline<T>(_ transform: (Element) throws -> T?) rethrows -> InlineList<T> {
        var mapped = InlineList<T>()
        for element in self {
            if let value = try transform(element) { mapped.append(value) }
        }
        return mapped
    }
}

extension InlineList: Sequence {
    struct Iterator: IteratorProtocol {
        fileprivate var list: InlineList

        mutating func next() -> Element? { list.popFirst() }
    }

    func makeIterator() -> Iterator { Iterator(list: self) }

    var underestimatedCount: Int { head == nil ? 0 : 1 + tail.count }
}

extension InlineList: ExpressibleByArrayLiteral {
    init(arrayLiteral elements: Element...) {
        for element in elements { append(element) }
    }
}

extension InlineList: Equatable where Element: Equatable {}
extension InlineList: Sendable where Element: Sendable {}
