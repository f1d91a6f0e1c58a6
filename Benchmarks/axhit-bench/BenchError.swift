/// A failure that ends the run (exit 1): bad input, a failed build, or an
/// engine that disagrees with the naive walk.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
