#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Bad requests and load against kstats serve (tests/cli/run.sh, serve).

  serve_load.py PORT malformed        raw requests no client would send
  serve_load.py PORT disconnect N     N scrapers that leave mid-answer
  serve_load.py PORT concurrent N     N scrapes at once, half protobuf
  serve_load.py PORT churn N PBDUMP NAME=COUNT...
                                      N scrapes while run.sh adds and
                                      removes nodes; NAME=COUNT the
                                      nodes' samples

Each check prints one line, "PASS what" or "FAIL what: why", for run.sh
to turn into ok / not ok; the figures are in the line.
"""
import re
import socket
import subprocess
import sys
import threading

PB_ACCEPT = ('application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;'
             'encoding=delimited,application/openmetrics-text;version=1.0.0;q=0.8,'
             'text/plain;version=0.0.4;q=0.5,*/*;q=0.1')


def say(good, what):
    print(('PASS ' if good else 'FAIL ') + what, flush=True)


def raw(port, data, read=True, timeout=10):
    """Send @data on a new connection; the answer's bytes (b'' if closed)."""
    s = socket.create_connection(('127.0.0.1', port), timeout=timeout)
    try:
        s.sendall(data)
        if not read:
            return b''
        out = b''
        while True:
            try:
                chunk = s.recv(65536)
            except (ConnectionResetError, socket.timeout):
                break
            if not chunk:
                break
            out += chunk
        return out
    finally:
        s.close()


def get(port, accept=None, path='/metrics'):
    """GET @path: (status, content type, body)."""
    req = 'GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n' % path
    if accept:
        req += 'Accept: %s\r\n' % accept
    ans = raw(port, (req + '\r\n').encode())
    head, _, body = ans.partition(b'\r\n\r\n')
    lines = head.decode('latin-1').split('\r\n')
    m = re.match(r'HTTP/1\.[01] (\d+)', lines[0]) if lines else None
    ctype = ''
    for line in lines[1:]:
        if line.lower().startswith('content-type:'):
            ctype = line.split(':', 1)[1].strip()
    return (int(m.group(1)) if m else 0, ctype, body)


def status(ans):
    m = re.match(rb'HTTP/1\.[01] (\d+)', ans)
    return int(m.group(1)) if m else 0


def malformed(port):
    cases = [
        ('garbage line', b'GARBAGE\r\n\r\n', (400, 0)),
        ('no path', b'GET\r\n\r\n', (400, 0)),
        ('HTTP/9.9', b'GET /metrics HTTP/9.9\r\nHost: x\r\n\r\n', (505, 400)),
        ('100 kB header', b'GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: ' + b'a' * 100000 +
         b'\r\n\r\n', (431, 413, 400, 0)),
        ('binary bytes', bytes(range(256)) * 4 + b'\r\n\r\n', (400, 0)),
        ('escaped NUL in the path', b'GET /metrics%00x HTTP/1.1\r\nHost: x\r\n\r\n', (404,)),
        ('a bad escape', b'GET /%zz%4 HTTP/1.1\r\nHost: x\r\n\r\n', (404,)),
        ('a body on GET', b'GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n'
         b'Connection: close\r\n\r\nabcde', (200,)),
        ('a bad chunked body', b'POST /metrics HTTP/1.1\r\nHost: x\r\n'
         b'Transfer-Encoding: chunked\r\n\r\nzz\r\n', (400, 405, 0)),
        ('an Accept of q=junk', b'GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n'
         b'Accept: application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;'
         b'q=zz;;=;encoding\r\n\r\n', (200,)),
    ]
    for what, data, want in cases:
        try:
            ans = raw(port, data, timeout=2)
        except OSError as e:
            ans = b''
            what += ' (%s)' % e
        st = status(ans)
        say(st in want, 'serve: %s: %s (%s)' % (what, 'HTTP %d' % st if st else 'no answer',
                                                 ' or '.join('HTTP %d' % w if w else 'none'
                                                             for w in want)))
    st, _, body = get(port)
    say(st == 200 and b'kstats_latency_seconds_count' in body,
        'serve: after the bad requests, /metrics answers (HTTP %d)' % st)


def disconnect(port, n):
    for i in range(n):
        s = socket.create_connection(('127.0.0.1', port))
        s.sendall(b'GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n')
        if i % 3 == 1:
            s.recv(100)			# a part of the answer, then gone
        if i % 3 == 2:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b'\x01\x00\x00\x00\x00\x00\x00\x00')
        s.close()
    # and one that sends half a request line, then leaves
    s = socket.create_connection(('127.0.0.1', port))
    s.sendall(b'GET /met')
    s.close()
    st, _, body = get(port)
    say(st == 200 and len(body) > 0,
        'serve: %d scrapers gone mid-answer (some with RST), then /metrics answers (HTTP %d)'
        % (n, st))


def concurrent(port, n):
    res = [None] * n
    go = threading.Barrier(n)

    def one(i):
        go.wait()
        try:
            res[i] = get(port, PB_ACCEPT if i % 2 else None)
        except OSError as e:
            res[i] = (0, str(e), b'')

    th = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in th:
        t.start()
    for t in th:
        t.join()
    ok200 = sum(1 for r in res if r[0] == 200)
    text = {r[2] for i, r in enumerate(res) if not i % 2}
    pb = {r[2] for i, r in enumerate(res) if i % 2}
    types = {r[1].split(';')[0] for r in res}
    say(ok200 == n and len(text) == 1 and len(pb) == 1 and
        types == {'text/plain', 'application/vnd.google.protobuf'},
        'serve: %d scrapes at once: %d HTTP 200, %d text and %d protobuf bodies that differ'
        % (n, ok200, len(text), len(pb)))


def churn(port, n, pbdump, want):
    bad = []
    seen = {}
    for i in range(n):
        pb = i % 2
        st, _, body = get(port, PB_ACCEPT if pb else None)
        if st != 200:
            bad.append('scrape %d: HTTP %d' % (i, st))
            continue
        if pb:
            p = subprocess.run([pbdump], input=body, capture_output=True)
            if p.returncode:
                bad.append('scrape %d: protobuf that does not decode' % i)
                continue
            counts = dict(re.findall(r'^kstats_latency_seconds\{node="([^"]+)".* count (\d+) ',
                                     p.stdout.decode(), re.M))
        else:
            counts = dict(re.findall(r'^kstats_latency_seconds_count\{node="([^"]+)"[^}]*\} (\d+)$',
                                     body.decode(), re.M))
        for name, c in counts.items():
            seen[name] = seen.get(name, 0) + 1
            if name not in want or int(c) != want[name]:
                bad.append('scrape %d: %s _count %s, %s wanted' % (i, name, c, want.get(name)))
        for name in ('find_vma',):
            if name not in counts:
                bad.append('scrape %d: %s missing' % (i, name))
    say(not bad, 'serve: %d scrapes while nodes come and go: every node whole, _count == its samples'
        ' (%s)%s' % (n, ', '.join('%s in %d' % kv for kv in sorted(seen.items())),
                     ': ' + '; '.join(bad[:3]) if bad else ''))


def main():
    port = int(sys.argv[1])
    mode = sys.argv[2]
    if mode == 'malformed':
        malformed(port)
    elif mode == 'disconnect':
        disconnect(port, int(sys.argv[3]))
    elif mode == 'concurrent':
        concurrent(port, int(sys.argv[3]))
    elif mode == 'churn':
        want = {}
        for a in sys.argv[5:]:
            k, v = a.split('=')
            want[k] = int(v)
        churn(port, int(sys.argv[3]), sys.argv[4], want)


if __name__ == '__main__':
    main()
