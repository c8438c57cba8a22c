"""Protocol buffer bytes by hand, for the tests that write pprof files
field by field (hostile names, deep stacks): a varint, and a field of
wire type 2 (length-delimited) or 0 (a varint given already encoded)."""


def varint(n):
    out = bytearray()
    while True:
        b, n = n & 0x7F, n >> 7
        if not n:
            out.append(b)
            return bytes(out)
        out.append(b | 0x80)


def field(number, payload, wire=2):
    key = varint(number << 3 | wire)
    return key + (varint(len(payload)) + payload if wire == 2 else payload)
