import Foundation
import PackagePlugin

/// Builds the default rule folder (`rules/`, its `tests/`) and personas (`examples/personas/`)
/// into the target it is applied to: at build time, the tool `embed-defaults` writes a Swift file
/// holding their bytes, so that a binary copied alone elsewhere still has them (``BuiltInDefaults``).
/// Nothing is generated into the source tree, and nothing is fetched.
@main
struct EmbedDefaults: BuildToolPlugin {
    /// The folders embedded, relative to the package, each under the name it takes at run time.
    static let folders = [(source: "rules", name: "rules"), (source: "examples/personas", name: "personas")]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        var inputs: [URL] = []
        var arguments: [String] = []
        for folder in Self.folders {
            let base = root.appending(path: folder.source)
            let names = (FileManager.default.enumerator(atPath: base.path)?.allObjects as? [String] ?? []).filter {
                ($0.hasSuffix(".lua") || $0.hasSuffix(".jsonl")) && !$0.split(separator: "/").contains { $0.hasPrefix(".") }
            }.sorted()
            for name in names {
                inputs.append(base.appending(path: name))
                // `name-at-run-time=path-on-disk`
                arguments.append("\(folder.name)/\(name)=\(base.appending(path: name).path)")
            }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedDefaults.swift")
        return [
            .buildCommand(
                displayName: "Embedding the default rules and personas",
                executable: try context.tool(named: "embed-defaults").url,
                arguments: [output.path] + arguments,
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}
