#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a whole output file (an export, a WAV) the way a cockpit Pi needs it written:
/// - a regular file, or none yet: into a temporary file beside it, flushed to the card, then
///   renamed over it, so a power cut leaves the old file or the new one, never half of one;
/// - an existing special file (a device such as `/dev/null` or `/dev/full`, a FIFO): written in
///   place, never replaced by a regular file;
/// - a symbolic link: refused, neither followed nor replaced.
/// A failure names the path and its cause ("the disk is full"); nothing half-written is left.
public enum FileOutput {
    /// Writes `bytes` to `path` as described above.
    public static func write(_ bytes: [UInt8], to path: String) throws(GatewayError) {
        var info = stat()
        if lstat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                throw GatewayError.file(path: path, reason: "is a symbolic link: not followed, not written (give the file it points to)")
            case S_IFDIR:
                throw GatewayError.file(path: path, reason: "is a folder: give a file name")
            case S_IFREG:
                break
            default:
                // A device or FIFO: written in place (opening a FIFO waits for its reader, as a shell does).
                let fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
                guard fd >= 0 else { throw GatewayError.file(path: path, reason: "cannot write (\(String(cString: strerror(errno))))") }
                let file = OpenFile(descriptor: fd, path: path)
                try file.write(bytes)
                file.close()
                return
            }
        }
        let folder = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let temporary = folder + "/." + name + ".partial-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw GatewayError.file(path: path, reason: "cannot write in \(folder) (\(String(cString: strerror(errno))))")
        }
        let file = OpenFile(descriptor: fd, path: path)
        do throws(GatewayError) {
            try file.write(bytes)
            guard fsync(fd) == 0 else {
                let code = errno
                throw GatewayError.file(path: path, reason: code == ENOSPC ? "cannot write: the disk is full" : "cannot write (\(String(cString: strerror(code))))")
            }
            file.close()
            guard rename(temporary, path) == 0 else {
                throw GatewayError.file(path: path, reason: "cannot replace it (\(String(cString: strerror(errno))))")
            }
        } catch {
            file.close()
            unlink(temporary)
            throw error
        }
    }
}
