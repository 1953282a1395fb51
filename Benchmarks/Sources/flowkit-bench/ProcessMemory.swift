import CMalloc
import Foundation

/// The process's memory as the kernel and the allocator see it.
struct ProcessMemory {
    /// Resident set size in bytes, from `/proc/self/statm` (second field, in pages).
    let residentBytes: Int
    /// Bytes the allocator has handed out and not got back (glibc `mallinfo2().uordblks`).
    let allocatedBytes: Int

    /// Reads both figures now.
    static func current() -> ProcessMemory {
        ProcessMemory(residentBytes: residentBytes(), allocatedBytes: Int(mallinfo2().uordblks))
    }

    private static func residentBytes() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
            preconditionFailure("cannot read /proc/self/statm (Linux only)")
        }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else {
            preconditionFailure("unexpected /proc/self/statm: \(statm)")
        }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// `bytes` as a signed count of KiB with one decimal.
func kibibytes(_ bytes: Int) -> String {
    String(format: "%+.1f KiB", Double(bytes) / 1024)
}
