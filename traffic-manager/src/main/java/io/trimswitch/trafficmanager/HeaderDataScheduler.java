package io.trimswitch.trafficmanager;

/**
 * Chooses between an egress port's header queue and data queue: headers first, but at least one
 * data packet after every N headers (NDP's 10:1 weighted round robin), so a flood of headers
 * cannot starve data. N = 0 means strict priority for headers.
 */
public final class HeaderDataScheduler {
    public static final int HEADER = 1;
    public static final int DATA = 2;
    public static final int NOTHING = 0;

    private final int headersPerData;
    private int headersSinceData;

    public HeaderDataScheduler(final int headersPerData) {
        if (headersPerData < 0) {
            throw new IllegalArgumentException("headers per data packet must be 0 (strict priority) or more, got " + headersPerData);
        }
        this.headersPerData = headersPerData;
    }

    public int choose(final boolean headerWaiting, final boolean dataWaiting) {
        if (headerWaiting && (!dataWaiting || headersPerData == 0 || headersSinceData < headersPerData)) {
            headersSinceData++;
            return HEADER;
        }
        if (dataWaiting) {
            headersSinceData = 0;
            return DATA;
        }
        return NOTHING;
    }

    public boolean strictPriority() {
        return headersPerData == 0;
    }

    public void reset() {
        headersSinceData = 0;
    }
}
