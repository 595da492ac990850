import Foundation
import MaeilCore
import MaeilDecks

/// libFuzzer entry point. `MAEIL_FUZZ_PARSER` chooses the parser: yaml, anki-text, csv, apkg,
/// steps, blanks. A parser may reject any input with an error; what counts as a finding is a
/// crash, a hang, or memory trouble (the address sanitizer watches).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let text = String(decoding: data, as: UTF8.self)
    var options = ImportOptions()
    options.maximumUnpackedBytes = 32 << 20
    switch Target.parser {
    case "yaml":
        _ = try? MaeilDeckFormat.parse(text: text, file: "/nonexistent/deck.yaml", options: options)
    case "anki-text":
        _ = try? AnkiTextFormat.parse(text: text, path: "fuzz.txt", options: options)
        options.skipInvalid = true
        _ = try? AnkiTextFormat.parse(text: text, path: "fuzz.txt", options: options)
    case "csv":
        _ = try? DelimitedFormat.parse(text: text, path: "fuzz.csv", options: options)
        _ = try? DelimitedFormat.parse(text: text, path: "fuzz.tsv", options: options)
    case "apkg":
        // Through a file, as `maeil import` reads packages. (ZIPFoundation's in-memory archive
        // traps on some inputs in its own seek callback; Maeil does not use it.)
        let path = NSTemporaryDirectory() + "maeil-fuzz-\(getpid()).apkg"
        guard FileManager.default.createFile(atPath: path, contents: data) else { return 0 }
        _ = try? AnkiPackage.read(path: path, options: options)
    case "steps":
        _ = LearningSteps(parsing: text)
    case "blanks":
        _ = Blanks(text: text, ordinal: Int(count % 4))
    default:
        fatalError("set MAEIL_FUZZ_PARSER to yaml, anki-text, csv, apkg, steps or blanks")
    }
    return 0
}

enum Target {
    static let parser = ProcessInfo.processInfo.environment["MAEIL_FUZZ_PARSER"] ?? ""
}

// SwiftPM links an executable's entry point as `<module>_main`; hand control to libFuzzer's
// driver from there, with the callback above.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_cdecl("maeil_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { bytes, size in
        guard let bytes else { return 0 }
        return fuzz(bytes, size)
    }
}
