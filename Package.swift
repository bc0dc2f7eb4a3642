// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "rulesrun",
    // Linux (Debian, Swift 6.1+) is where it is built and tested; on macOS, 15 or later: the
    // `Mutex` and `Atomic` of the Synchronization library need it.
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LuaHost", targets: ["LuaHost"]),
        .library(name: "RulesModel", targets: ["RulesModel"]),
        .library(name: "RulesStore", targets: ["RulesStore"]),
        .library(name: "RulesEngine", targets: ["RulesEngine"]),
        .library(name: "RulesSim", targets: ["RulesSim"]),
        .library(name: "RulesBench", targets: ["RulesBench"]),
        .executable(name: "rulesrun", targets: ["rulesrun"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // Ed25519 signatures and SHA-256 of rule bundles.
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // Lua 5.4 from the system (pkg-config lua5.4), plus one header of static inline wrappers.
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"]), .brew(["lua"])]
        ),
        // What must happen in C: the trampoline through which Lua calls Swift, the instruction hook,
        // the counting allocator, the sandboxed library functions that may raise; and the build id of
        // a loaded image (what the proofs kept on disk are keyed by).
        .target(name: "CLuaSupport", dependencies: ["CLua"]),
        // The default rules and personas, built into the binary (`@default`): the plugin runs the
        // tool at build time, which writes their bytes into a Swift file of the build folder.
        .executableTarget(name: "embed-defaults"),
        .plugin(name: "EmbedDefaults", capability: .buildTool(), dependencies: ["embed-defaults"]),
        .target(name: "BuiltInDefaults", plugins: ["EmbedDefaults"]),
        .target(
            name: "LuaHost",
            dependencies: ["CLua", "CLuaSupport", "BuiltInDefaults", .product(name: "Logging", package: "swift-log")]
        ),
        .target(name: "RulesModel"),
        .target(
            name: "RulesStore",
            dependencies: [
                "RulesModel", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "RulesEngine",
            dependencies: [
                "BuiltInDefaults", "CLuaSupport", "LuaHost", "RulesModel", "RulesStore", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "RulesSim", dependencies: ["BuiltInDefaults", "RulesEngine", "LuaHost", "RulesModel", "RulesStore"]
        ),
        // The benchmarks of `rulesrun bench` and `simulate --bench`, kept out of the libraries they
        // measure. Its bare-C floor calls Lua directly (CLua) as the baseline; nothing else does.
        .target(
            name: "RulesBench",
            dependencies: [
                "BuiltInDefaults", "CLua", "LuaHost", "RulesModel", "RulesStore", "RulesSim", "RulesEngine",
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .executableTarget(
            name: "rulesrun",
            dependencies: [
                "BuiltInDefaults",
                "LuaHost",
                "RulesBench",
                "RulesEngine",
                "RulesModel",
                "RulesSim",
                "RulesStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(name: "embedding-example", dependencies: ["LuaHost"], path: "examples/embedding"),
        .testTarget(name: "LuaHostTests", dependencies: ["LuaHost"]),
        .testTarget(
            name: "RulesSimTests",
            dependencies: [
                "RulesSim", "RulesEngine", "LuaHost", "RulesModel", "RulesStore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // What several test targets share: a loopback HTTP server (bundles fetched over HTTP).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "RulesEngineTests",
            dependencies: [
                "RulesEngine", "LuaHost", "RulesModel", "RulesStore", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "RulesModelTests",
            dependencies: ["RulesModel", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .executableTarget(name: "StoreFaultChild", dependencies: ["RulesStore", "RulesModel"], path: "Tests/StoreFaultChild"),
        .testTarget(
            name: "RulesStoreTests",
            dependencies: [
                "RulesStore", "RulesModel", "StoreFaultChild",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(name: "RulesBenchTests", dependencies: ["RulesBench", "RulesSim", "RulesStore"]),
        // GRDB: the tests make SQLite databases of other programs, and read what rulesrun wrote.
        .testTarget(
            name: "RulesrunTests",
            dependencies: [
                "rulesrun", "LuaHost", "RulesEngine", "TestSupport", "embedding-example", .product(name: "GRDB", package: "GRDB.swift"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
