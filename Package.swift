// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "AXHit",
    products: [
        .library(name: "AXHit", targets: ["AXHit"]),
        .executable(name: "axhit", targets: ["axhit"]),
        .executable(name: "axhit-bench", targets: ["axhit-bench"]),
    ],
    targets: [
        // GEOS's C API. Only Sources/AXGeometry/GEOS imports it.
        .systemLibrary(
            name: "CGEOS",
            path: "Sources/CGEOS",
            pkgConfig: "geos",
            providers: [.apt(["libgeos-dev"]), .brew(["geos"])]
        ),
        // A read hint (`__builtin_prefetch`), which Swift cannot spell: the
        // screen grid starts a batch of queries' cache misses together.
        .systemLibrary(name: "CPrefetch", path: "Sources/CPrefetch"),
        .target(name: "AXGeometry", dependencies: ["CGEOS", "CPrefetch"]),
        .target(name: "AXHit", dependencies: ["AXGeometry"]),
        // Argument parsing and JSON Lines output, shared by the two tools
        // (JSON numbers and strings as AXGeometry's `JSONBytes` writes them,
        // as the library's answer lines do).
        .target(name: "CommandLineSupport", dependencies: ["AXGeometry"]),
        .executableTarget(name: "axhit", dependencies: ["AXHit", "CommandLineSupport"], path: "Sources/axhit"),
        // The harness's plain-C uniform grid, the speed goal's yardstick.
        // DWARF 4, as Swift emits: Valgrind (scripts/bench-gate) reads no
        // DWARF 5, which clang emits by default.
        .target(
            name: "CUniformGrid", path: "Benchmarks/CUniformGrid",
            cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        .executableTarget(
            name: "axhit-bench", dependencies: ["AXHit", "CommandLineSupport", "CUniformGrid"],
            path: "Benchmarks/axhit-bench"),
        // The README's library example, built as printed (a test checks the
        // README shows exactly this file, and runs it).
        .executableTarget(name: "readme-example", dependencies: ["AXHit"], path: "Examples/readme-example"),
        .testTarget(name: "AXGeometryTests", dependencies: ["AXGeometry"]),
        .testTarget(name: "AXHitTests", dependencies: ["AXHit", "CommandLineSupport"]),
    ]
)
