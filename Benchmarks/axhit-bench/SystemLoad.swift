import Foundation

/// How busy other processes kept the machine's CPUs, from /proc (Linux):
/// every CPU's busy time less this process's own, over an interval. A run
/// measured while a neighbour's build took a core is slower for that alone;
/// `compare` will not call a change a regression when the new run had much
/// more of such company than the baseline.
struct SystemLoad {
    /// Busy clock ticks of all CPUs, and of this process (all its threads).
    private let allBusy: Double
    private let ownBusy: Double
    private let time: UInt64

    /// Now.
    init() {
        allBusy = Self.allCPUsBusy() ?? 0
        ownBusy = Self.ownCPUBusy() ?? 0
        time = Stopwatch.now()
    }

    /// CPUs other processes kept busy on average since `start` (0 ... the
    /// number of cores); 0 where /proc cannot say.
    func otherCores(since start: SystemLoad) -> Double {
        let seconds = Double(time - start.time) / 1e9
        guard seconds > 0 else { return 0 }
        let ticks = (allBusy - start.allBusy) - (ownBusy - start.ownBusy)
        return max(0, ticks / Self.ticksPerSecond / seconds)
    }

    private static let ticksPerSecond = Double(max(1, sysconf(Int32(_SC_CLK_TCK))))

    /// The `cpu` line of /proc/stat: user, nice, system, irq, softirq and
    /// steal (time the hypervisor gave another guest: also someone else's).
    private static func allCPUsBusy() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") })
        else { return nil }
        let f = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard f.count >= 8 else { return nil }
        return f[0] + f[1] + f[2] + f[5] + f[6] + f[7]
    }

    /// utime + stime of /proc/self/stat (fields 14 and 15; the name in
    /// parentheses before them may hold spaces, so count after it).
    private static func ownCPUBusy() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        let f = text[text.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, so utime (14) is the 12th.
        guard f.count > 12, let user = Double(f[11]), let system = Double(f[12]) else { return nil }
        return user + system
    }
}
