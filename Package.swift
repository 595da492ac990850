// swift-tools-version: 6.1
// Maeil — a spaced-repetition engine for the terminal.
//
// Modules are layers; a module imports only modules below it:
//   maeil (executable, swift-argument-parser: parses and prints) · maeil-bench (benchmarks)
//   MaeilREPL (what a person sees and types)
//   MaeilSession · MaeilFocus · MaeilSpeech
//   MaeilSync (Anki's sync protocol, over the Anki file formats of MaeilDecks)
//   MaeilStore · MaeilDecks · MaeilSimulator · MaeilOptimizer
//   MaeilSQLite · MaeilPrograms
//   MaeilCore (pure scheduling: value types, no I/O, no clock, no global randomness)
// Only MaeilCore is a product; the other modules share their declarations with `package` access.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
]

let package = Package(
    name: "Maeil",
    products: [
        .executable(name: "maeil", targets: ["maeil"]),
        .executable(name: "maeil-bench", targets: ["maeil-bench"]),
        .library(name: "MaeilCore", targets: ["MaeilCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
    ],
    targets: [
        .target(name: "MaeilCore", swiftSettings: swiftSettings),
        // Finding and running the programs Maeil uses when the system has them.
        .target(name: "MaeilPrograms", swiftSettings: swiftSettings),
        // Binding rows straight through SQLite's C API: the store and the Anki package writer.
        .target(
            name: "MaeilSQLite",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "MaeilStore",
            dependencies: ["MaeilCore", "MaeilSQLite", "MaeilPrograms", "CSQLiteSetup", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "GRDBSQLite", package: "GRDB.swift")],
            swiftSettings: swiftSettings
        ),
        // One C function: sqlite3_config is variadic, which Swift cannot call.
        .target(name: "CSQLiteSetup", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(name: "CPrefetch"),
        .target(
            name: "MaeilFocus",
            dependencies: ["MaeilCore", "MaeilStore", "MaeilPrograms"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "MaeilSpeech",
            dependencies: ["MaeilCore", "MaeilPrograms"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "MaeilREPL",
            dependencies: ["MaeilCore", "MaeilStore", "MaeilSession", "MaeilSpeech", "MaeilFocus", "MaeilDecks", "MaeilSimulator", "MaeilOptimizer", "MaeilPrograms",
                           "MaeilSync", "CEdit"],
            swiftSettings: swiftSettings
        ),
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        .systemLibrary(name: "CSystemZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CEdit", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),
        // SHA-1 for Anki's note checksums and media lists.
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .target(
            name: "MaeilDecks",
            dependencies: [
                "MaeilCore", "MaeilSQLite", "MaeilPrograms", "CZstd", "CSystemZlib", "CLibCrypto",
                .product(name: "Yams", package: "Yams"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        // Optimized in debug builds too: the suite holds it against fsrs-rs over hundreds of
        // runs (AgainstFSRSRSTests), 25 times slower unoptimized.
        .target(
            name: "MaeilSimulator",
            dependencies: ["MaeilCore", "CPrefetch", .product(name: "Yams", package: "Yams")],
            swiftSettings: swiftSettings + [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        // Fitting FSRS to a learner's own reviews, as fsrs-rs does.
        .target(
            name: "MaeilOptimizer",
            dependencies: ["MaeilCore"],
            swiftSettings: swiftSettings
        ),
        // Anki's sync protocol, spoken to Anki's own server or AnkiWeb: Anki's collection files go
        // across as they are, so it sits on the deck formats.
        .target(
            name: "MaeilSync",
            dependencies: ["MaeilCore", "MaeilDecks", "MaeilPrograms", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "MaeilSession",
            dependencies: ["MaeilCore", "MaeilStore", "MaeilDecks", "MaeilOptimizer", "MaeilSimulator", "MaeilPrograms", "MaeilSync"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "maeil",
            dependencies: [
                "MaeilCore", "MaeilStore", "MaeilSession", "MaeilREPL", "MaeilDecks", "MaeilSpeech", "MaeilFocus", "MaeilSimulator", "MaeilOptimizer",
                "MaeilPrograms", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // `maeil bench` (or `maeil-bench`): speed and memory, measured on the libraries and on the
        // `maeil` binary beside it.
        .executableTarget(
            name: "maeil-bench",
            dependencies: [
                "MaeilCore", "MaeilStore", "MaeilSession", "MaeilDecks", "MaeilSimulator", "MaeilOptimizer", "MaeilPrograms",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // Zip bombs for the memory figures.
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: swiftSettings
        ),
        // What the tests share: fixed clocks, temporary collections, deck files. Tests only.
        .target(
            name: "MaeilTestSupport",
            dependencies: ["MaeilCore", "MaeilStore", "MaeilSession", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            path: "Tests/MaeilTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MaeilCoreTests",
            dependencies: ["MaeilCore", "MaeilTestSupport", .product(name: "PropertyBased", package: "swift-property-based")],
            // Answer sequences Anki itself scheduled (scripts/fixtures/make-fsrs-sequences.py), read by path.
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MaeilSQLiteTests",
            dependencies: ["MaeilSQLite", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "MaeilProgramsTests", dependencies: ["MaeilPrograms", "MaeilTestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "MaeilSpeechTests", dependencies: ["MaeilSpeech", "MaeilTestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "MaeilStoreTests",
            dependencies: ["MaeilCore", "MaeilStore", "MaeilTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MaeilDecksTests",
            dependencies: ["MaeilCore", "MaeilDecks", "MaeilStore", "MaeilSession", "MaeilTestSupport",
                           .product(name: "GRDB", package: "GRDB.swift"), .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            // The tests read the fixtures from the source tree by path.
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MaeilSimulatorTests",
            dependencies: ["MaeilCore", "MaeilSimulator", .product(name: "PropertyBased", package: "swift-property-based")],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MaeilSessionTests",
            dependencies: ["MaeilCore", "MaeilStore", "MaeilDecks", "MaeilSession", "MaeilSync", "MaeilTestSupport",
                           .product(name: "GRDB", package: "GRDB.swift"), .product(name: "PropertyBased", package: "swift-property-based")],
            // A package and the memory states Anki gave its cards (scripts/fixtures/make-fsrs-switch.py), read by path.
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MaeilFocusTests",
            dependencies: ["MaeilCore", "MaeilStore", "MaeilSession", "MaeilFocus", "MaeilPrograms", "MaeilTestSupport",
                           .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MaeilREPLTests",
            dependencies: ["MaeilCore", "MaeilStore", "MaeilSession", "MaeilREPL", "MaeilTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MaeilOptimizerTests",
            dependencies: ["MaeilOptimizer", "MaeilCore"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MaeilEndToEndTests",
            dependencies: ["maeil", "MaeilCore", "MaeilDecks", "MaeilStore", "MaeilSession", "MaeilREPL", "MaeilOptimizer", "MaeilTestSupport",
                           .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: swiftSettings
        ),
    ]
)

// `MAEIL_FUZZ=1 swift build --product maeil-fuzz -Xswiftc -sanitize=fuzzer,address` builds a libFuzzer
// target for the deck parsers (scripts/fuzz). It exists only then: libFuzzer supplies its own main.
if Context.environment["MAEIL_FUZZ"] != nil {
    package.targets.append(.executableTarget(
        name: "maeil-fuzz",
        dependencies: ["MaeilDecks", "MaeilCore"],
        path: "Fuzz",
        swiftSettings: swiftSettings + [.unsafeFlags(["-parse-as-library"])]
    ))
}
