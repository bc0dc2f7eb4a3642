// swift-tools-version: 6.1
import PackageDescription

// An app that uses rulesrun as a dependency, through its public products only (README.md).
let package = Package(
    name: "app-example",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "rulesrun", path: "../..")],
    targets: [
        .executableTarget(
            name: "app-example",
            dependencies: [
                .product(name: "RulesEngine", package: "rulesrun"),
                .product(name: "RulesStore", package: "rulesrun"),
                .product(name: "RulesModel", package: "rulesrun"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
