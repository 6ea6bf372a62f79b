/// What a command prints, kept until it succeeds: a failed command prints nothing on stdout, as the issue asks of
/// `swift`'s behaviour.
final class Output {
    private var lines = [String]()

    /// Adds a line.
    func line(_ text: String) { lines.append(text) }

    /// Writes every line to stdout.
    func flush() {
        for line in lines { print(line) }
        lines = []
    }
}

/// Python's `%Ns` (right-aligned) and `%-Ns` (left-aligned) for the listings' columns.
func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let count = text.count
    guard count < width else { return text }
    let fill = String(repeating: " ", count: width - count)
    return left ? text + fill : fill + text
}

/// swiftclient's `prt_bytes`: 12 columns, or with `human` `ls -lh`'s four.
func printedBytes(_ bytes: Int64, human: Bool) -> String {
    guard human else { return pad(String(bytes), 12) }
    var number = Double(bytes)
    var suffix: Character? = nil
    for candidate in ["K", "M", "G", "T", "P", "E", "Z", "Y"] as [Character] {
        if number <= 1023 { break }
        number /= 1024
        suffix = candidate
    }
    guard let suffix else { return pad(String(bytes), 4) }
    if number >= 10 { return pad(String(Int(number)), 3) + String(suffix) }
    let tenths = (number * 10).rounded()
    return "\(Int(tenths) / 10).\(Int(tenths) % 10)\(suffix)"
}
