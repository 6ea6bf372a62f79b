// Fuzzes the .netrc parser (FileKeyring's NetrcFile).
//
// Invariants: errors are SyntaxErrors with a line inside the file; machine names are lower-cased; a lookup of each
// machine finds a credential with that entry's login when it has a login and a password.
import FuzzSupport
import FileKeyring
import HTTPCore

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let lineCount = input.bytes.count { $0 == 0x0A } + 1
    do {
        let file = try NetrcFile(parsing: input.bytes)
        for entry in file.entries {
            if let machine = entry.machine {
                fuzzCheck(machine == machine.lowercased(), "machine \(machine) not lower-cased")
                if entry.login != nil, entry.password != nil {
                    fuzzCheck(file.credential(forHost: machine) != nil, "no credential for machine \(machine)")
                }
            }
        }
    } catch {
        fuzzCheck((1...lineCount).contains(error.line), "error line \(error.line) outside 1...\(lineCount)")
    }
    return 0
}

runLibFuzzer { fuzz($0, $1) }
