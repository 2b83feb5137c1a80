package io.trimswitch.dataplane.io;

/** A capture file the switch cannot read; the message names the file, the byte offset and the problem. */
public final class CaptureFormatException extends RuntimeException {
    private final String source;
    private final long offset;

    public CaptureFormatException(final String source, final long offset, final String problem) {
        super(source + " at byte " + offset + ": " + problem);
        this.source = source;
        this.offset = offset;
    }

    public String source() {
        return source;
    }

    public long offset() {
        return offset;
    }
}
