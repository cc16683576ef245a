#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file descriptor, closed when the value goes (or by `close`): the recorder's appends and
/// the NOTAM file's chunked reads, in place of Foundation's `FileHandle`.
public final class OpenFile {
    /// The descriptor (-1 once closed).
    public private(set) var descriptor: Int32
    /// The path, for messages.
    public let path: String

    /// Takes ownership of `descriptor`.
    public init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// `path` opened for reading; nil when it cannot be.
    public static func reading(_ path: String) -> OpenFile? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        return fd >= 0 ? OpenFile(descriptor: fd, path: path) : nil
    }

    /// `path` created or emptied for writing.
    public static func writing(_ path: String) throws(GatewayError) -> OpenFile {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw GatewayError.file(path: path, reason: "cannot write (\(String(cString: strerror(errno))))") }
        return OpenFile(descriptor: fd, path: path)
    }

    deinit { close() }

    /// Closes the descriptor (once).
    public func close() {
        guard descriptor >= 0 else { return }
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
        descriptor = -1
    }

    /// Writes every byte (retrying short writes and interruptions).
    public func write(_ bytes: some Collection<UInt8>) throws(GatewayError) {
        let failure: Int32? = bytes.withContiguousStorageIfAvailable { buffer -> Int32? in
            var done = 0
            while done < buffer.count {
                let n = Glibc.write(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += n
            }
            return nil
        } ?? {
            let copy = Array(bytes)
            do { try write(copy); return nil } catch { return EIO }
        }()
        if let failure {
            throw GatewayError.file(path: path, reason: failure == ENOSPC ? "cannot write: the disk is full (\(String(cString: strerror(failure))))"
                                                                       : "cannot write (\(String(cString: strerror(failure))))")
        }
    }

    /// Up to `count` bytes (empty at the end of the file or on an error).
    public func read(upTo count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let n = Glibc.read(descriptor, buffer.baseAddress! + done, count - done)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                done += n
            }
            initialized = done
        }
    }
}
