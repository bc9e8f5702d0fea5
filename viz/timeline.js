// SPDX-License-Identifier: GPL-2.0
// fence-trace timeline page: vanilla JS on one canvas.  The data object
// (output/timeline-json.c) is read once into typed arrays; drawing reads
// those and the view only.  Every string from the trace reaches the DOM
// through textContent, never as markup.
'use strict';
(function () {
  const D = JSON.parse(document.getElementById('ft-data').textContent);
  const LABEL_W = 210, ROW_H = 13, VBL_H = 12, LANE_PAD = 6, MIN_LANE_H = 36, AXIS_H = 20, MIN_SPAN_NS = 1000;
  const canvas = document.getElementById('ft-canvas');
  const ctx = canvas.getContext('2d');
  const tip = document.getElementById('ft-tip');
  const details = document.getElementById('ft-details');

  // ---- data: columns -> typed arrays ----
  function undelta(a) {
    const r = new Float64Array(a.length);
    let t = 0;
    for (let i = 0; i < a.length; i++) { t += a[i]; r[i] = t; }
    return r;
  }
  function spans(s, kind) {
    const t0 = undelta(s.t0), t1 = new Float64Array(t0.length);
    for (let i = 0; i < t0.length; i++) t1[i] = s.dur[i] < 0 ? D.duration : t0[i] + s.dur[i];
    const links = s.out || s.commit, link = links ? Int32Array.from(undelta(links), v => v - 1) : null;
    return { kind, tl: Int32Array.from(s.tl), seq: s.seq, t0, t1, dur: s.dur, row: s.row, n: t0.length,
             lane: Int32Array.from(s.task || s.plane || []), link, failed: s.failed || null };
  }
  const F = spans(D.fences, 'fence'), W = spans(D.waits, 'wait'), P = spans(D.plane_waits, 'pwait');
  const V = { pipe: Int32Array.from(D.vblanks.pipe), seq: D.vblanks.seq, t: undelta(D.vblanks.t) };
  // The bits of C.flags, as the data names them (output/timeline.h).
  const FL = D.commits.flag_bits;
  // Commits: with the series, as written; on a stock kernel one per
  // out-fence (fences of CRTC timelines, in order), its span the fence's.
  function commits(c) {
    const n = c.pid.length, C = { kind: 'commit', n, pid: c.pid, out: new Int32Array(n), crtc: new Int32Array(n),
      t0: new Float64Array(n), t1: new Float64Array(n), dur: new Float64Array(n), row: new Int32Array(n),
      id: c.id || new Array(n).fill(0), vblank: c.vblank || new Array(n).fill(-1), flags: new Int32Array(n) };
    if (D.series) {
      const t0 = undelta(c.t0);
      for (let i = 0; i < n; i++) {
        C.out[i] = c.out[i]; C.crtc[i] = c.crtc[i]; C.t0[i] = t0[i]; C.dur[i] = c.dur[i];
        C.t1[i] = c.dur[i] < 0 ? D.duration : t0[i] + c.dur[i]; C.row[i] = c.row[i]; C.flags[i] = c.flags[i];
      }
      return C;
    }
    for (let i = 0, k = 0; i < F.n && k < n; i++) {
      const crtc = D.timelines[F.tl[i]].crtc;
      if (crtc < 0) continue;
      C.out[k] = i; C.crtc[k] = crtc; C.t0[k] = F.t0[i]; C.t1[k] = F.t1[i]; C.dur[k] = F.dur[i];
      C.row[k] = F.row[i]; C.flags[k++] = FL.inferred | (F.dur[i] >= 0 ? FL.flipped : 0);
    }
    return C;
  }
  const C = commits(D.commits);
  // Frames, as the report's frame timeline judged them: an expected span
  // (commit -> target vblank; exp -1: not judged) and an actual one
  // (commit -> the vblank it landed on) each, in two sets.
  function frameSets(fr) {
    const t0 = undelta(fr.t0), n = t0.length;
    const set = (kind, dur) => ({ kind, n, t0, t1: Float64Array.from(dur, (d, i) => t0[i] + Math.max(d, 0)), dur,
                                  row: fr.row, crtc: fr.crtc, seq: fr.seq, cls: fr.cls, late: fr.late,
                                  target: fr.target, landed: fr.landed, est: fr.est });
    return [set('fexp', fr.exp), set('fact', fr.dur)];
  }
  const [FE, FA] = frameSets(D.frames);
  // Frames that failed (the commit rejected after its out-fence was made):
  // out-fence made -> dropped unsignalled, on a lane of their own, as a
  // rejection can fall inside another frame's actual span.  Rows per CRTC:
  // the first whose last span ended before this one began, else a new one
  // (rows never overlap: drawing and hit testing bisect them).
  function failedSet(list) {
    const L = list.slice().sort((a, b) => a.crtc - b.crtc || a.t0 - b.t0), n = L.length;
    const S = { kind: 'ffail', n, list: L, t0: Float64Array.from(L, f => f.t0),
                t1: Float64Array.from(L, f => Math.max(f.t1, f.t0)), row: new Int32Array(n),
                crtc: Int32Array.from(L, f => f.crtc), seq: Uint32Array.from(L, f => f.seq) };
    S.dur = Float64Array.from(S.t0, (t, i) => S.t1[i] - t);
    const ends = new Map();	// per CRTC, each row's last end
    L.forEach((f, i) => {
      const e = ends.get(f.crtc) || [];
      let r = e.findIndex(end => end <= S.t0[i]);
      if (r < 0) r = e.length;
      e[r] = Math.max(e[r] || 0, S.t1[i]);
      S.row[i] = r;
      ends.set(f.crtc, e);
    });
    S.rowsOf = ci => (ends.get(ci) || []).length;
    return S;
  }
  const FF = failedSet(D.failed_frames || []);
  const FAILED_COLOUR = '#7a1420', FAILED_LOST_COLOUR = '#c98a91';
  const className = i => D.frame_classes[FA.cls[i]];
  // One colour per class (actual row) and per repeat blame (vblank row).
  const CLASS_COLOUR = { 'on-time': '#5aae61', producer: '#d6453d', queued: '#e08a1e', wakeup: '#8e5bb5',
                         driver: '#2b7bba', unknown: '#8a8f99', 'not-judged': '#c8ccd4' };
  const EXPECTED_COLOUR = '#a6d3a8';
  const REPEAT_COLOUR = { 'waiting-fence': '#d6453d', queued: '#e08a1e', driver: '#2b7bba', 'waiting-poll': '#b07cc6',
                          'compositor-late': '#e6b000', idle: '#c8ccd4', unknown: '#8a8f99' };
  const repeatKind = r => D.repeat_kinds[r.kind];
  const crtcRows = D.series ? D.crtc_rows : D.crtcs.map(c => D.timelines[c.tl].rows);
  // Keys (timeline, seqno) as one number: Map lookups without strings.
  const key = (tl, seq) => tl * 4294967296 + seq;
  // Indexes only the details panel needs: built on its first use, so
  // that they cost nothing at load.
  function lazy(build) { let v = null; return () => v || (v = build()); }
  const fenceIndex = lazy(() => {	// (tl, seq) -> latest fence index
    const m = new Map();
    for (let i = 0; i < F.n; i++) m.set(key(F.tl[i], F.seq[i]), i);
    return m;
  });
  const commitIndex = lazy(() => {	// out-fence -> its commit
    const m = new Map();
    for (let i = 0; i < C.n; i++) if (C.out[i] >= 0) m.set(C.out[i], i);
    return m;
  });
  const commitOf = f => { const c = commitIndex().get(f); return c === undefined ? -1 : c; };
  let waitsByKey = null;		// (tl, seq) -> wait indexes
  function waitsOf(tl, seq) {
    if (!waitsByKey) {
      waitsByKey = new Map();
      for (let i = 0; i < W.n; i++) {
        const k = key(W.tl[i], W.seq[i]);
        if (!waitsByKey.has(k)) waitsByKey.set(k, []);
        waitsByKey.get(k).push(i);
      }
    }
    return waitsByKey.get(key(tl, seq)) || [];
  }
  const lateByFence = new Map(), lateByBlock = new Map();
  D.late.forEach((l, i) => {
    if (l.fence >= 0) lateByFence.set(l.fence, i);
    if (l.block && l.block.fence >= 0) {
      if (!lateByBlock.has(l.block.fence)) lateByBlock.set(l.block.fence, []);
      lateByBlock.get(l.block.fence).push(i);
    }
  });
  // A late frame's arrow: from its blocking fence's signal (else the end
  // of the wait on it, as the report says) to where the frame reached the
  // screen: its commit's flip when the trace has it, else its out-fence's
  // signal (the report's "landed").  A span that never ended is drawn to
  // the end of the trace, which is no time the frame landed: never there.
  function arrowEnd(l) {
    if (!l.fence_late) return { why: 'no in-fence of it signalled past its deadline (class ' + l.cls + ')' };
    if (!l.block || l.block.fence < 0) return { why: 'the fence that blocked it is not known' };
    if (!(l.block.signal >= 0)) return { why: 'the trace has no signal of the fence that blocked it' };
    if (l.fence < 0) return { why: 'its out-fence is not in the trace' };
    const c = commitOf(l.fence), from = l.block.signal;
    if (c >= 0 && (C.flags[c] & FL.flipped) && C.dur[c] >= 0) return { kind: 'commit', i: c, from, t: C.t1[c], how: 'to its flip' };
    if (l.signal >= 0)
      return { kind: 'fence', i: l.fence, from, t: l.signal,
               how: 'to its out-fence\'s signal (the trace has no flip for its commit)' };
    return { why: 'the trace has neither its flip nor its out-fence\'s signal' };
  }
  const arrowOf = D.late.map(arrowEnd);
  const arrows = D.late.map((l, k) => ({ l, end: arrowOf[k] })).filter(a => a.end.kind);
  const notDrawn = D.late.map((l, k) => ({ l, why: arrowOf[k].why })).filter(a => a.why);
  const comm = pid => D.comms[pid] || '?';

  // ---- lanes: CRTCs (vblanks, commits, out-fences), planes, timelines, waiting tasks ----
  // Each row holds indexes into one span set (S), sorted by start; rows
  // never overlap, so ends are sorted too and sub-pixel runs can be
  // skipped by bisection.
  function rowsOf(S, pick, nrows) {
    const rows = Array.from({ length: Math.max(nrows, 1) }, () => []);
    for (let i = 0; i < S.n; i++) if (pick(i)) rows[Math.min(S.row[i], rows.length - 1)].push(i);
    return rows.map(r => ({ S, idx: Int32Array.from(r) }));
  }
  const lanes = [], laneOfTimeline = new Map(), laneOfTask = new Map(), laneOfPipe = new Map();
  const laneOfCrtc = new Map(), laneOfPlane = new Map(), laneOfFrames = new Map(), laneOfFailed = new Map();
  function vblanksOf(pipe) {
    const r = [];
    for (let i = 0; i < V.t.length; i++) if (V.pipe[i] === pipe) r.push(i);
    return Int32Array.from(r);
  }
  D.crtcs.forEach((c, ci) => {
    const tl = D.timelines[c.tl];
    const lane = { kind: 'crtc', name: c.name || ('CRTC ' + c.id), sub: c.driver + ' · ' + tl.name,
                   crtc: ci, pipe: c.pipe,
                   rows: rowsOf(C, i => C.crtc[i] === ci, crtcRows[ci] || 1).concat(rowsOf(F, i => F.tl[i] === c.tl, tl.rows)),
                   vbl: c.pipe >= 0 ? vblanksOf(c.pipe) : null };
    laneOfTimeline.set(c.tl, lanes.length);
    laneOfCrtc.set(ci, lanes.length);
    if (c.pipe >= 0) laneOfPipe.set(c.pipe, lanes.length);
    lanes.push(lane);
    if (FA.crtc.includes(ci)) {
      laneOfFrames.set(ci, lanes.length);	// expected, then actual (+ 1)
      lanes.push({ kind: 'frames', name: lane.name + ' expected', sub: 'commit → target vblank', crtc: ci,
                   rows: rowsOf(FE, i => FE.crtc[i] === ci && FE.dur[i] >= 0, D.frame_rows[ci]) },
                 { kind: 'frames', name: lane.name + ' actual', sub: 'commit → landed vblank, by class', crtc: ci,
                   rows: rowsOf(FA, i => FA.crtc[i] === ci, D.frame_rows[ci]) });
    }
    if (FF.crtc.includes(ci)) {
      laneOfFailed.set(ci, lanes.length);
      lanes.push({ kind: 'failed', name: lane.name + ' failed', sub: 'rejected: out-fence made → dropped', crtc: ci,
                   rows: rowsOf(FF, i => FF.crtc[i] === ci, FF.rowsOf(ci)) });
    }
  });
  D.pipes.forEach(p => {
    if (laneOfPipe.has(p.pipe)) return;
    laneOfPipe.set(p.pipe, lanes.length);
    lanes.push({ kind: 'pipe', name: 'vblanks pipe ' + p.pipe, sub: 'no CRTC paired', pipe: p.pipe,
                 rows: [], vbl: vblanksOf(p.pipe) });
  });
  D.planes.forEach((p, k) => {
    laneOfPlane.set(k, lanes.length);
    lanes.push({ kind: 'plane', name: 'plane ' + p.id, sub: 'in-fence waits · CRTC ' + p.crtc,
                 rows: rowsOf(P, i => P.lane[i] === k, p.rows) });
  });
  D.timelines.forEach((t, ti) => {
    if (t.crtc >= 0) return;
    laneOfTimeline.set(ti, lanes.length);
    lanes.push({ kind: 'timeline', name: t.name, sub: t.driver + ' · context ' + t.ctx, tl: ti,
                 rows: rowsOf(F, i => F.tl[i] === ti, t.rows) });
  });
  D.tasks.forEach((t, k) => {
    laneOfTask.set(k, lanes.length);
    lanes.push({ kind: 'task', name: t.comm + '-' + t.pid, sub: 'waits', rows: rowsOf(W, i => W.lane[i] === k, t.rows) });
  });
  let y = AXIS_H;
  for (const l of lanes) {
    l.y = y;
    l.rowY = y + LANE_PAD + (l.vbl ? VBL_H + 2 : 0);
    l.h = Math.max(l.rowY - y + l.rows.length * ROW_H + LANE_PAD, MIN_LANE_H);
    y += l.h;
  }
  const totalH = Math.max(y, 60);
  const SETS = { fence: F, wait: W, pwait: P, commit: C, fexp: FE, fact: FA, ffail: FF };

  // ---- view ----
  const view = { t0: 0, t1: Math.max(D.duration, MIN_SPAN_NS) };
  let plotW = 800, selection = null, hover = null, frameTimes = [], dirty = false;
  const xOf = t => LABEL_W + (t - view.t0) * plotW / (view.t1 - view.t0);
  const tOf = x => view.t0 + (x - LABEL_W) * (view.t1 - view.t0) / plotW;
  function setView(t0, t1) {
    const span = Math.max(t1 - t0, MIN_SPAN_NS), pad = D.duration * 0.05 + MIN_SPAN_NS;
    t0 = Math.max(-pad, Math.min(t0, D.duration + pad - span));
    view.t0 = t0; view.t1 = t0 + span;
    schedule();
  }
  function zoom(factor, atX) {
    const t = tOf(atX);
    setView(t - (t - view.t0) * factor, t + (view.t1 - t) * factor);
  }
  function pan(fraction) {
    const d = (view.t1 - view.t0) * fraction;
    setView(view.t0 + d, view.t1 + d);
  }
  const fit = () => setView(0, Math.max(D.duration, MIN_SPAN_NS));

  // ---- drawing ----
  function lowerBound(arr, idx, key, v) {	// first k with arr[idx[k]] >= v
    let lo = 0, hi = idx.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (arr[idx[m]] < v) lo = m + 1; else hi = m; }
    return lo;
  }
  // Plane waits take the colour of the timeline they waited for.
  const tlColour = D.timelines.map((t, i) => 'hsl(' + Math.round((i * 137.5 + 20) % 360) + ',62%,48%)');
  function spanColour(S, i) {
    if (S === FE) return EXPECTED_COLOUR;
    if (S === FA) return CLASS_COLOUR[className(i)];
    if (S === FF) return FF.list[i].lost ? FAILED_LOST_COLOUR : FAILED_COLOUR;
    if (S.dur[i] < 0) return '#b9bec8';
    if (S === W) return '#d99a2b';
    if (S === P) return P.failed[i] ? '#7b2a86' : (tlColour[P.tl[i]] || '#7b8494');
    if (S === C) return C.flags[i] & FL.failed ? '#7b2a86' : lateByFence.has(C.out[i]) ? '#e07a7e' : '#8fb0ee';
    return D.timelines[F.tl[i]].crtc >= 0 ? (lateByFence.has(i) ? '#c0262d' : '#3b6fd8') : '#3a9b6b';
  }
  // Spans of one row; runs narrower than a pixel become one grey pixel.
  function drawRow(row, y0) {
    const S = row.S, idx = row.idx, pxNs = (view.t1 - view.t0) / plotW;
    let k = Math.max(0, lowerBound(S.t0, idx, 't0', view.t0) - 1), drawn = 0;
    while (k < idx.length) {
      const i = idx[k];
      if (S.t0[i] > view.t1) break;
      const x0 = xOf(S.t0[i]), x1 = xOf(S.t1[i]);
      if (x1 - x0 >= 1) {
        ctx.fillStyle = spanColour(S, i);
        ctx.fillRect(Math.max(x0, LABEL_W), y0, Math.min(x1, LABEL_W + plotW) - Math.max(x0, LABEL_W), ROW_H - 3);
        k++;
      } else {
        // every span starting within this pixel is merged into it
        const px = Math.floor(x0);
        let next = lowerBound(S.t0, idx, 't0', view.t0 + (px + 1 - LABEL_W) * pxNs);
        if (next <= k) next = k + 1;
        ctx.fillStyle = next - k > 1 ? '#7b8494' : spanColour(S, i);
        if (px >= LABEL_W) ctx.fillRect(px, y0, 1, ROW_H - 3);
        // rows never overlap, so only the run's last span can reach further
        const last = idx[next - 1], xe = Math.min(xOf(S.t1[last]), LABEL_W + plotW);
        if (next - 1 > k && xe >= px + 2) {
          ctx.fillStyle = spanColour(S, last);
          ctx.fillRect(px + 1, y0, xe - px - 1, ROW_H - 3);
        }
        k = next;
      }
      drawn++;
    }
    return drawn;
  }
  function drawVblanks(lane) {
    const idx = lane.vbl, yv = lane.y + LANE_PAD;
    let k = lowerBound(V.t, idx, 't', view.t0), last = -1;
    ctx.fillStyle = '#5a6375';
    for (; k < idx.length && V.t[idx[k]] <= view.t1; k++) {
      const x = Math.floor(xOf(V.t[idx[k]]));
      if (x === last) {	// one tick per pixel
        k = Math.max(k, lowerBound(V.t, idx, 't', tOf(x + 1)) - 1);
        continue;
      }
      last = x;
      ctx.fillRect(x, yv, 1, VBL_H);
    }
    if (lane.kind === 'crtc') drawRepeats(lane, yv);
    ctx.fillStyle = '#c0262d';
    for (const m of D.missed) {
      if (m.pipe !== lane.pipe || m.t < view.t0 || m.t > view.t1) continue;
      const x = xOf(m.t);
      ctx.beginPath(); ctx.moveTo(x - 4, yv); ctx.lineTo(x + 4, yv); ctx.lineTo(x, yv + 7); ctx.fill();
    }
  }
  // Runs of repeated vblanks: a band under the ticks, coloured by blame
  // (a filled path: not a span of the lane).
  function drawRepeats(lane, yv) {
    for (const r of D.repeats) {
      if (r.crtc !== lane.crtc || r.t0 < 0 || r.t1 < 0 || r.t1 < view.t0 || r.t0 > view.t1) continue;
      const x0 = Math.max(xOf(r.t0), LABEL_W), x1 = Math.max(Math.min(xOf(r.t1), LABEL_W + plotW), x0 + 1);
      ctx.fillStyle = REPEAT_COLOUR[repeatKind(r)];
      ctx.beginPath(); ctx.moveTo(x0, yv + VBL_H - 4); ctx.lineTo(x1, yv + VBL_H - 4);
      ctx.lineTo(x1, yv + VBL_H); ctx.lineTo(x0, yv + VBL_H); ctx.closePath(); ctx.fill();
    }
  }
  // The y of an item's row: find its lane, then the row holding its set.
  function spanY(kind, i) {
    const S = SETS[kind];
    const li = kind === 'wait' ? laneOfTask.get(W.lane[i]) : kind === 'pwait' ? laneOfPlane.get(P.lane[i])
      : kind === 'commit' ? laneOfCrtc.get(C.crtc[i]) : kind === 'fexp' ? laneOfFrames.get(FE.crtc[i])
      : kind === 'fact' ? laneOfFrames.get(FA.crtc[i]) + 1 : kind === 'ffail' ? laneOfFailed.get(FF.crtc[i])
      : laneOfTimeline.get(F.tl[i]);
    const l = lanes[li];
    if (!l) return -1;
    const first = l.rows.findIndex(r => r.S === S);
    let n = 0;
    for (const r of l.rows) n += r.S === S;
    return l.rowY + (first + Math.min(S.row[i], n - 1)) * ROW_H;
  }
  function drawArrows() {
    ctx.strokeStyle = ctx.fillStyle = '#c0262d';
    ctx.lineWidth = 1.5;
    for (const { l, end } of arrows) {
      // From the blocking fence's signal to where the frame landed (arrowEnd()).
      const xa = xOf(end.from), xb = xOf(end.t);
      if (Math.max(xa, xb) < LABEL_W || Math.min(xa, xb) > LABEL_W + plotW) continue;
      const ya = spanY('fence', l.block.fence) + 5, yb = spanY(end.kind, end.i) + 5;
      ctx.beginPath(); ctx.moveTo(xa, ya); ctx.lineTo(xb, yb); ctx.stroke();
      const a = Math.atan2(yb - ya, xb - xa);
      ctx.beginPath(); ctx.moveTo(xb, yb);
      ctx.lineTo(xb - 8 * Math.cos(a - 0.4), yb - 8 * Math.sin(a - 0.4));
      ctx.lineTo(xb - 8 * Math.cos(a + 0.4), yb - 8 * Math.sin(a + 0.4)); ctx.fill();
      ctx.beginPath(); ctx.arc(xa, ya, 3, 0, 7); ctx.fill();
    }
  }
  function drawLabels() {
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, LABEL_W, totalH);
    ctx.textBaseline = 'top';
    for (const l of lanes) {
      ctx.fillStyle = '#1d2330'; ctx.font = '600 12px system-ui, sans-serif';
      ctx.fillText(l.name, 6, l.y + 4, LABEL_W - 10);	// canvas text is never markup
      ctx.fillStyle = '#5a6375'; ctx.font = '11px system-ui, sans-serif';
      ctx.fillText(l.sub, 6, l.y + 18, LABEL_W - 10);
      ctx.fillStyle = '#d5d9e0'; ctx.fillRect(0, l.y + l.h - 1, LABEL_W + plotW, 1);
    }
  }
  // A time axis: ticks at 1, 2 or 5 x 10^n ns, about every 100 px.
  function drawAxis() {
    const span = view.t1 - view.t0, raw = span / (plotW / 100), p = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = raw / p < 2 ? p : raw / p < 5 ? 2 * p : 5 * p;
    ctx.fillStyle = '#fff'; ctx.fillRect(LABEL_W, 0, plotW, AXIS_H);
    ctx.font = '11px system-ui, sans-serif'; ctx.textBaseline = 'top';
    for (let t = Math.ceil(view.t0 / step) * step; t <= view.t1; t += step) {
      const x = xOf(t);
      ctx.fillStyle = '#e6e9ee'; ctx.fillRect(x, AXIS_H, 1, totalH - AXIS_H);
      ctx.fillStyle = '#5a6375'; ctx.fillRect(x, AXIS_H - 5, 1, 5);
      ctx.fillText((t < 0 ? '-' : '+') + fmtStep(Math.abs(t), step), x + 3, 3);
    }
  }
  function drawSelection() {
    if (!selection || selection.kind === 'vblank' || selection.kind === 'repeat') return;
    const S = SETS[selection.kind], i = selection.i, yy = spanY(selection.kind, i);
    ctx.strokeStyle = '#111'; ctx.lineWidth = 2;
    ctx.strokeRect(xOf(S.t0[i]) - 1, yy - 1, Math.max(xOf(S.t1[i]) - xOf(S.t0[i]), 1) + 2, ROW_H - 1);
  }
  function draw() {
    dirty = false;
    const start = performance.now();
    ctx.setTransform(devicePixelRatio, 0, 0, devicePixelRatio, 0, 0);
    ctx.fillStyle = '#fafbfc'; ctx.fillRect(0, 0, LABEL_W + plotW, totalH);
    drawAxis();
    for (const l of lanes) {
      if (l.vbl) drawVblanks(l);
      l.rows.forEach((row, r) => drawRow(row, l.rowY + r * ROW_H));
    }
    drawArrows();
    drawSelection();
    drawLabels();
    document.getElementById('ft-range').textContent =
      'view ' + fmtTime(view.t0) + ' – ' + fmtTime(view.t1) + ' (' + fmtDur(view.t1 - view.t0) + ')';
    const ms = performance.now() - start;
    frameTimes.push(ms);
    if (frameTimes.length > 1000) frameTimes.shift();
    return ms;
  }
  function schedule() { if (!dirty) { dirty = true; requestAnimationFrame(draw); } }
  function resize() {
    const w = canvas.parentElement.clientWidth;
    plotW = Math.max(w - LABEL_W, 100);
    canvas.width = w * devicePixelRatio; canvas.height = totalH * devicePixelRatio;
    canvas.style.height = totalH + 'px';
    schedule();
  }

  // ---- formatting ----
  function fmtDur(ns) {
    if (ns < 0) return 'never';
    if (ns === 0) return '0';
    if (ns >= 1e9) return (ns / 1e9).toFixed(3) + ' s';
    if (ns >= 1e6) return (ns / 1e6).toFixed(3) + ' ms';
    return (ns / 1e3).toFixed(1) + ' µs';
  }
  function fmtStep(ns, step) {	// axis labels: the unit of the step, no trailing zeros
    const [u, name] = step >= 1e9 ? [1e9, 's'] : step >= 1e6 ? [1e6, 'ms'] : step >= 1e3 ? [1e3, 'µs'] : [1, 'ns'];
    return +(ns / u).toPrecision(9) + ' ' + name;
  }
  const fmtTime = ns => ((D.start_ns + ns) / 1e9).toFixed(6) + ' s';

  // ---- hit testing ----
  function laneAt(yy) { return lanes.find(l => yy >= l.y && yy < l.y + l.h); }
  function hit(x, yy) {
    const l = laneAt(yy);
    if (!l || x < LABEL_W) return null;
    const tol = 3 * (view.t1 - view.t0) / plotW, t = tOf(x);
    if (l.vbl && yy < l.rowY) {
      // the band of repeats under the ticks, else the nearest tick
      const inBand = l.kind === 'crtc' && yy >= l.y + LANE_PAD + VBL_H - 4;
      const r = inBand ? D.repeats.findIndex(r => r.crtc === l.crtc && r.t0 >= 0 && r.t0 <= t && r.t1 >= t) : -1;
      if (r >= 0) return { kind: 'repeat', i: r };
      const k = lowerBound(V.t, l.vbl, 't', t - tol);
      if (k < l.vbl.length && V.t[l.vbl[k]] <= t + tol) return { kind: 'vblank', i: l.vbl[k] };
      return null;
    }
    const row = l.rows[Math.floor((yy - l.rowY) / ROW_H)];
    if (!row) return null;
    const S = row.S, idx = row.idx;
    let k = lowerBound(S.t0, idx, 't0', t + tol) - 1;
    for (; k >= 0; k--) {
      const i = idx[k];
      if (S.t1[i] >= t - tol) return { kind: S.kind, i };
      if (S.t1[i] < t - 50 * tol) break;
    }
    return null;
  }

  // ---- details panel: every field, and links to related items ----
  function el(tag, text) { const e = document.createElement(tag); if (text !== undefined) e.textContent = String(text); return e; }
  function link(label, sel) {
    const b = el('button', '→ ' + label);
    b.addEventListener('click', () => select(sel, true));
    return b;
  }
  function fenceFields(i) {
    const t = D.timelines[F.tl[i]];
    return [['timeline', t.name], ['driver', t.driver], ['context', t.ctx], ['seqno', F.seq[i]],
            ['created', fmtTime(F.t0[i])], ['signalled', F.dur[i] < 0 ? 'never (in this trace)' : fmtTime(F.t1[i])],
            ['init → signal', fmtDur(F.dur[i])]];
  }
  function vblankOfSignal(i) {	// the vblank an out-fence landed on: the next on its pipe
    const c = D.crtcs[D.timelines[F.tl[i]].crtc], l = lanes[laneOfPipe.get(c.pipe)];
    if (!l || F.dur[i] < 0) return -1;
    const k = lowerBound(V.t, l.vbl, 't', F.t1[i]);
    return k < l.vbl.length && V.t[l.vbl[k]] - F.t1[i] < 5e6 ? l.vbl[k] : -1;
  }
  // The vblank of sequence @seq on lane @l nearest to time @t.  By
  // sequence, not by time: flip_done is traced in the vblank handler, but a
  // TCG guest on a busy host can be descheduled between the two events.
  // Sequences repeat only after a wrap or a vblank counter reset, far
  // apart, so the nearest match within a second is the one.
  function vblankBySeq(l, seq, t) {
    let best = -1;
    for (let k = lowerBound(V.t, l.vbl, 't', t - 1e9); k < l.vbl.length && V.t[l.vbl[k]] <= t + 1e9; k++)
      if (V.seq[l.vbl[k]] === seq && (best < 0 || Math.abs(V.t[l.vbl[k]] - t) < Math.abs(V.t[best] - t)))
        best = l.vbl[k];
    return best;
  }
  // A commit's vblank: flip_done's sequence (series), else where its out-fence landed.
  function vblankOfCommit(i) {
    if (!(C.flags[i] & FL.inferred)) {
      const l = lanes[laneOfPipe.get((D.crtcs[C.crtc[i]] || {}).pipe)];
      if (!l || !(C.flags[i] & FL.flipped)) return -1;
      return vblankBySeq(l, C.vblank[i], C.t1[i]);
    }
    return C.out[i] >= 0 ? vblankOfSignal(C.out[i]) : -1;
  }
  // For a test's diagnostics: the vblanks within 50 ms of commit @i's end.
  function vblanksNear(i) {
    const pipe = (D.crtcs[C.crtc[i]] || {}).pipe, r = [];
    for (let k = 0; k < V.t.length; k++)
      if (Math.abs(V.t[k] - C.t1[i]) < 5e7) r.push({ pipe: V.pipe[k], seq: V.seq[k], dt_ms: (V.t[k] - C.t1[i]) / 1e6 });
    return { crtcPipe: pipe, lane: laneOfPipe.get(pipe), vblanks: r };
  }
  const commitName = i => C.flags[i] & FL.inferred ? 'commit of out-fence #' + F.seq[C.out[i]] : 'commit ' + C.id[i];
  const fenceName = i => D.timelines[F.tl[i]].name + ' #' + F.seq[i];
  // The in-fences a commit waited for: its planes' waits (series), or the
  // dma_fence waits the model says held it up (stock kernel).
  function inFenceWaits(i) {
    const r = [];
    if (!(C.flags[i] & FL.inferred)) { for (let k = 0; k < P.n; k++) if (P.link[k] === i) r.push({ kind: 'pwait', i: k }); }
    if (C.out[i] >= 0) for (let k = 0; k < W.n; k++) if (W.link[k] === C.out[i]) r.push({ kind: 'wait', i: k });
    return r;
  }
  function waitedFence(S, i) { return fenceIndex().get(key(S.tl[i], S.seq[i])); }
  function commitRelated(i) {
    const out = [];
    if (C.out[i] >= 0) out.push(['out-fence #' + F.seq[C.out[i]], { kind: 'fence', i: C.out[i] }]);
    const v = vblankOfCommit(i);
    if (v >= 0) out.push(['vblank ' + V.seq[v] + ' (flipped)', { kind: 'vblank', i: v }]);
    for (const w of inFenceWaits(i).slice(0, 20)) {
      const S = SETS[w.kind], f = waitedFence(S, w.i), t = D.timelines[S.tl[w.i]];
      const who = w.kind === 'pwait' ? 'plane ' + D.planes[P.lane[w.i]].id : D.tasks[W.lane[w.i]].comm;
      out.push(['in-fence wait (' + who + '): ' + (t ? t.name : '?') + ' #' + S.seq[w.i], w]);
      if (f !== undefined) out.push(['in-fence ' + fenceName(f), { kind: 'fence', i: f }]);
    }
    return out;
  }
  function related(sel) {
    const out = [], i = sel.i;
    if (sel.kind === 'commit') return commitRelated(i);
    if (sel.kind === 'fexp' || sel.kind === 'fact') return frameRelated(sel);
    if (sel.kind === 'ffail') return failedRelated(i);
    if (sel.kind === 'repeat') return repeatRelated(i);
    if (sel.kind === 'fence') {
      const li = lateByFence.get(i);
      if (commitOf(i) >= 0) out.push([commitName(commitOf(i)) + ' (its commit)', { kind: 'commit', i: commitOf(i) }]);
      if (li !== undefined) {
        const l = D.late[li];
        if (l.block && l.block.fence >= 0) out.push(['blocking fence: ' + D.timelines[l.block.tl].name + ' #' + l.block.seq, { kind: 'fence', i: l.block.fence }]);
      }
      if (D.timelines[F.tl[i]].crtc >= 0) {
        const v = vblankOfSignal(i);
        if (v >= 0) out.push(['vblank ' + V.seq[v] + ' (landed)', { kind: 'vblank', i: v }]);
      }
      for (const li2 of lateByBlock.get(i) || []) out.push(['delayed frame: out-fence #' + D.late[li2].seq, { kind: 'fence', i: D.late[li2].fence }]);
      for (const w of waitsOf(F.tl[i], F.seq[i]).slice(0, 20))
        out.push(['wait by ' + D.tasks[W.lane[w]].comm + '-' + D.tasks[W.lane[w]].pid, { kind: 'wait', i: w }]);
      for (let k = 0; k < P.n && out.length < 40; k++)
        if (P.tl[k] === F.tl[i] && P.seq[k] === F.seq[i]) out.push(['wait by plane ' + D.planes[P.lane[k]].id, { kind: 'pwait', i: k }]);
    } else if (sel.kind === 'wait' || sel.kind === 'pwait') {
      const S = SETS[sel.kind], f = waitedFence(S, i);
      const c = sel.kind === 'pwait' ? P.link[i] : commitOf(W.link[i]);
      if (f !== undefined) out.push(['the fence waited for', { kind: 'fence', i: f }]);
      if (c >= 0) out.push([commitName(c) + ' (held up)', { kind: 'commit', i: c }]);
    } else {
      D.crtcs.forEach(c => {
        if (c.pipe !== V.pipe[i]) return;
        for (const row of lanes[laneOfTimeline.get(c.tl)].rows) {
          if (row.S !== F) continue;
          const idx = row.idx, k = lowerBound(F.t1, idx, 't1', V.t[i] - 5e6);
          for (let j = k; j < idx.length && F.t1[idx[j]] <= V.t[i]; j++)
            if (F.dur[idx[j]] >= 0) out.push(['out-fence #' + F.seq[idx[j]] + ' signalled on it', { kind: 'fence', i: idx[j] }]);
        }
      });
      if (D.series)
        for (let k = 0; k < C.n; k++)
          if ((C.flags[k] & FL.flipped) && C.vblank[k] === V.seq[i] && (D.crtcs[C.crtc[k]] || {}).pipe === V.pipe[i])
            out.push([commitName(k) + ' flipped on it', { kind: 'commit', i: k }]);
    }
    return out;
  }
  function commitFields(i) {
    const f = [['kind', C.flags[i] & FL.inferred ? 'commit, inferred from its out-fence (stock kernel: ioctl ≈ out-fence created, flip ≈ signalled)'
                                     : 'atomic commit (drm_fence_commit → drm_fence_flip_done)'],
               ['commit id', C.flags[i] & FL.inferred ? '-' : C.id[i]], ['CRTC', (D.crtcs[C.crtc[i]] || {}).name || '?'],
               ['task', comm(C.pid[i]) + '-' + C.pid[i]], ['ioctl', fmtTime(C.t0[i])],
               [C.flags[i] & FL.failed ? 'failed' : 'flip done', C.dur[i] < 0 ? 'never (in this trace)' : fmtTime(C.t1[i])],
               ['ioctl → flip', fmtDur(C.dur[i])]];
    if (C.out[i] >= 0) f.push(['out-fence', fenceName(C.out[i])]);
    if (!(C.flags[i] & FL.inferred) && (C.flags[i] & FL.flipped)) f.push(['vblank', C.vblank[i]]);
    if (lateByFence.has(C.out[i])) f.push(['LATE', 'its out-fence landed late']);
    return f;
  }
  // The frame timeline's items: a frame's expected or actual span, a run of repeats.
  const outFenceOf = (ci, seq) => fenceIndex().get(key(D.crtcs[ci].tl, seq));
  function frameFields(kind, i) {
    const S = SETS[kind], est = S.est[i] ? ' (not traced: its time from the period)' : '';
    const f = [['frame', 'out-fence #' + S.seq[i] + ' on ' + D.crtcs[S.crtc[i]].name],
               ['committed', fmtTime(S.t0[i])], ['target vblank', FE.dur[i] < 0 ? 'not known: not judged' : S.target[i] + est]];
    if (kind === 'fexp') return f.concat([['commit → target vblank', fmtDur(S.dur[i])]]);
    f.push(['landed vblank', S.landed[i]], ['commit → landed', fmtDur(S.dur[i])], ['class', className(i)]);
    const l = D.late[S.late[i]];
    if (l) f.push(['late by', (l.landed - l.target) + ' vblank(s), ' + (l.late_by < 0 ? '?' : fmtDur(l.late_by))], ['cause', l.cause]);
    return f;
  }
  const REPEAT_WHY = {
    'waiting-fence': 'a commit for it was pending on an in-fence', queued: 'a commit for it was pending behind an earlier one',
    driver: 'a commit for it was ready, the driver did not show it', 'waiting-poll': 'no commit pending, a sync_file poll in progress',
    'compositor-late': 'no commit pending, past the compositor\'s cadence', idle: 'no commit pending, within the cadence',
    unknown: 'not known' };
  function repeatFields(i) {
    const r = D.repeats[i];
    return [['vblanks', r.first + '–' + (r.first + r.count - 1) + ' (' + r.count + ')'], ['blame', repeatKind(r)],
            ['cause', REPEAT_WHY[repeatKind(r)]], ['cadence', r.cadence + ' vblank(s)'], ['next frame', 'out-fence #' + r.next]];
  }
  function frameRelated(sel) {
    const S = SETS[sel.kind], i = sel.i, out = [], f = outFenceOf(S.crtc[i], S.seq[i]), l = D.late[S.late[i]];
    out.push(sel.kind === 'fact' ? ['its expected span', { kind: 'fexp', i }] : ['its actual span', { kind: 'fact', i }]);
    if (f !== undefined) out.push(['out-fence #' + S.seq[i], { kind: 'fence', i: f }]);
    if (f !== undefined && commitOf(f) >= 0) out.push([commitName(commitOf(f)) + ' (its commit)', { kind: 'commit', i: commitOf(f) }]);
    if (l && l.block && l.block.fence >= 0) out.push(['its last in-fence: ' + D.timelines[l.block.tl].name + ' #' + l.block.seq, { kind: 'fence', i: l.block.fence }]);
    return out;
  }
  function failedFields(i) {
    const f = FF.list[i], c = D.crtcs[f.crtc];
    return [['frame', 'out-fence #' + f.seq + ' on ' + (c.name || 'CRTC ' + c.id)],
            ['outcome', f.lost ? 'failed or lost: events were lost while it lived (its signal may be what was lost)'
                               : 'failed: the commit was rejected, its frame never shown'],
            ['committed by', comm(f.pid) + '-' + f.pid], ['out-fence made', fmtTime(f.t0)],
            ['dropped unsignalled', fmtTime(f.t1)], ['made → dropped', fmtDur(f.t1 - f.t0)],
            ['commit id', f.commit === null ? 'not traced (needs the series)' : f.commit],
            ['error', f.err === null ? 'not traced (needs the series\' drm_fence_out_discard)' : f.err]];
  }
  function failedRelated(i) {
    const f = FF.list[i], out = outFenceOf(f.crtc, f.seq);
    return out === undefined ? [] : [['out-fence #' + f.seq, { kind: 'fence', i: out }]];
  }
  function repeatRelated(i) {
    const r = D.repeats[i], k = FA.seq.findIndex((s, j) => s === r.next && FA.crtc[j] === r.crtc);
    return k >= 0 ? [['the frame after it: out-fence #' + r.next, { kind: 'fact', i: k }]] : [];
  }
  function fieldsOf(sel) {
    const i = sel.i;
    if (sel.kind === 'fexp' || sel.kind === 'fact') return frameFields(sel.kind, i);
    if (sel.kind === 'ffail') return failedFields(i);
    if (sel.kind === 'repeat') return repeatFields(i);
    if (sel.kind === 'vblank') return [['vblank', 'pipe ' + V.pipe[i]], ['sequence', V.seq[i]], ['time', fmtTime(V.t[i])]];
    if (sel.kind === 'commit') return commitFields(i);
    if (sel.kind === 'wait' || sel.kind === 'pwait') {
      const S = SETS[sel.kind], t = D.timelines[S.tl[i]], task = D.tasks[W.lane[i]];
      const who = sel.kind === 'pwait' ? 'plane ' + D.planes[P.lane[i]].id + ' (in-fence)' : task.comm + '-' + task.pid;
      const f = [['wait by', who], ['on timeline', t ? t.name : '?'], ['seqno', S.seq[i]],
                 ['start', fmtTime(S.t0[i])], ['end', S.dur[i] < 0 ? 'never' : fmtTime(S.t1[i])], ['duration', fmtDur(S.dur[i])]];
      if (sel.kind === 'pwait') f.push(['commit', C.id[P.link[i]]], ['interrupted', P.failed[i] ? 'yes (error)' : 'no']);
      return f;
    }
    const f = fenceFields(i), li = lateByFence.get(i);
    if (D.timelines[F.tl[i]].crtc >= 0) {
      const v = vblankOfSignal(i);
      f.unshift(['kind', 'out-fence (commit)']);
      if (v >= 0) f.push(['landed on vblank', V.seq[v] + ' (signal → vblank event ' + fmtDur(V.t[v] - F.t1[i]) + ')']);
    }
    if (li !== undefined) {
      const l = D.late[li];
      f.push(['LATE', 'by ' + (l.landed - l.target) + ' vblank(s), ' + (l.late_by < 0 ? '?' : fmtDur(l.late_by))],
             ['class', l.cls], ['cause', l.cause],
             ['target vblank', l.target], ['landed vblank', l.landed], ['committed by pid', l.pid]);
      if (l.block) f.push(['blocking wait', fmtDur(l.block.wait)]);
      f.push(['arrow', arrowOf[li].how || 'not drawn: ' + arrowOf[li].why]);
    }
    return f;
  }
  const TITLES = { vblank: 'vblank', wait: 'wait', pwait: 'plane in-fence wait', commit: 'commit', fence: 'fence',
                   fexp: 'frame: expected', fact: 'frame: actual', ffail: 'frame: failed', repeat: 'repeated vblanks' };
  function showDetails(sel) {
    details.replaceChildren();
    if (!sel) { details.append(el('p', 'Click a span, a vblank or an arrow for its details.')); return; }
    details.append(el('h2', TITLES[sel.kind]));
    const table = el('table');
    for (const [k, v] of fieldsOf(sel)) { const tr = el('tr'); tr.append(el('td', k), el('td', v)); table.append(tr); }
    details.append(table);
    const rel = related(sel);
    if (rel.length) details.append(el('h2', 'related'));
    for (const [label, s] of rel) details.append(link(label, s));
  }
  function timeOf(sel) {
    if (sel.kind === 'vblank') return [V.t[sel.i], V.t[sel.i]];
    if (sel.kind === 'repeat') return [D.repeats[sel.i].t0, D.repeats[sel.i].t1];
    const S = SETS[sel.kind];
    return [S.t0[sel.i], S.t1[sel.i]];
  }
  function select(sel, reveal) {
    selection = sel;
    showDetails(sel);
    if (sel && reveal) {
      const [a, b] = timeOf(sel);
      if (a < view.t0 || b > view.t1) {
        const span = Math.max(view.t1 - view.t0, (b - a) * 3), mid = (a + b) / 2;
        setView(mid - span / 2, mid + span / 2);
      }
    }
    schedule();
  }

  // ---- search: a seqno (fence or out-fence), commit:ID, pid:PID, or a
  // name: timelines (their fences) and tasks (their commits and waits) ----
  let results = [], resultPos = -1, lastQuery = '';
  function byTasks(pids) {	// commits and waits of these tasks, in time order
    const r = [];
    for (let i = 0; i < C.n; i++) if (pids.has(C.pid[i])) r.push({ kind: 'commit', i });
    D.tasks.forEach((t, k) => { if (pids.has(t.pid)) for (let i = 0; i < W.n; i++) if (W.lane[i] === k) r.push({ kind: 'wait', i }); });
    return r.sort((a, b) => SETS[a.kind].t0[a.i] - SETS[b.kind].t0[b.i]);
  }
  function find(q) {
    const r = [];
    let m;
    if (/^\d+$/.test(q)) {
      for (let i = 0; i < F.n; i++) if (F.seq[i] === Number(q)) r.push({ kind: 'fence', i });
    } else if ((m = /^commit[: ]\s*(\d+)$/i.exec(q))) {
      for (let i = 0; i < C.n; i++) if (!(C.flags[i] & FL.inferred) && C.id[i] === Number(m[1])) r.push({ kind: 'commit', i });
    } else if ((m = /^pid[: ]\s*(\d+)$/i.exec(q))) {
      return byTasks(new Set([Number(m[1])]));
    } else if (q) {
      const ql = q.toLowerCase(), tls = new Set(), pids = new Set();
      D.timelines.forEach((t, i) => { if ((t.name + ' ' + t.driver).toLowerCase().includes(ql)) tls.add(i); });
      for (let i = 0; i < F.n; i++) if (tls.has(F.tl[i])) r.push({ kind: 'fence', i });
      for (const [pid, name] of Object.entries(D.comms)) if (name.toLowerCase().includes(ql)) pids.add(Number(pid));
      r.push(...byTasks(pids));
    }
    return r;
  }
  function search(q) {
    q = q.trim();
    if (q !== lastQuery) { lastQuery = q; resultPos = -1; results = find(q); }
    const status = document.getElementById('ft-search-status');
    if (!results.length) { status.textContent = q ? 'no match' : ''; return; }
    resultPos = (resultPos + 1) % results.length;
    status.textContent = (resultPos + 1) + ' / ' + results.length;
    select(results[resultPos], true);
  }

  // ---- header: key numbers ----
  function summary() {
    document.getElementById('ft-file').textContent = D.file + ' · clock ' + D.clock;
    const box = document.getElementById('ft-summary');
    const nums = el('div');
    nums.append(el('span', 'events '), el('span', D.events), el('span', ' · lost '));
    const lost = el('span', D.lost); if (D.lost) lost.className = 'ft-bad';
    nums.append(lost, el('span', ' · duration ' + fmtDur(D.duration) + ' · late-frame arrows ' + arrows.length));
    if (notDrawn.length) {	// say why a late frame has no arrow, rather than draw it anywhere
      const why = el('span', ' (' + notDrawn.length + ' late frame(s) without one)');
      why.id = 'ft-no-arrow';
      why.title = notDrawn.map(a => 'out-fence #' + a.l.seq + ': ' + a.why).join('\n');
      nums.append(why);
    }
    nums.children[1].className = 'ft-num';
    box.append(nums);
    function table(head, rows) {
      const t = el('table'), tr = el('tr');
      head.forEach(h => tr.append(el('th', h)));
      t.append(tr);
      const bad = new Set(['late', 'failed']);
      rows.forEach(r => { const row = el('tr'); r.forEach((c, k) => { const td = el('td', c); if (bad.has(head[k]) && parseInt(c, 10) > 0) td.className = 'ft-bad'; row.append(td); }); t.append(row); });
      return t;
    }
    // failed: commits rejected after their out-fence was made (null: destroys not recorded);
    // "+N?": N more dropped while events were lost (failed, or their signal lost)
    const failedCell = c => c.failed === null ? '?' : c.failed_or_lost ? c.failed + ' (+' + c.failed_or_lost + '?)' : c.failed;
    box.append(table(['CRTC', 'driver', 'frames', 'late', 'failed', 'missed vblanks', 'out p50', 'out p99'],
      D.crtcs.map(c => [c.name, c.driver, c.frames, c.late, failedCell(c),
                        (D.pipes.find(p => p.pipe === c.pipe) || { missed: '-' }).missed, fmtDur(c.p50), fmtDur(c.p99)])));
    // A driver without vblank interrupts (virtio-gpu) signals at commit completion: nothing to judge against.
    for (const c of D.crtcs.filter(c => c.fake > 0 && c.judged === 0))
      box.append(el('p', (c.name || 'CRTC ' + c.id) + ' (' + c.driver + '): fake vblanks only (no vblank interrupt): ' +
                 'its frames are not judged on time or late, and it has no frame lanes.'));
    box.append(table(['timeline', 'driver', 'fences', 'signalled', 'p50', 'p99'],
      D.timelines.map(t => [t.name, t.driver, t.fences, t.signaled, fmtDur(t.p50), fmtDur(t.p99)])));
    document.getElementById('ft-note').textContent = D.series
      ? 'Kernel series events present: commits are drm_fence_commit → drm_fence_flip_done; ' + D.planes.length +
        ' plane lane(s) with their in-fence waits (drm_fence_wait_begin → _end).'
      : 'No plane lanes: this trace has no drm_fence:* events (a stock kernel, without the fence-trace series), ' +
        'so nothing says which plane waited.  Commits are inferred: one per out-fence, from its creation in the ' +
        'ioctl to its signal at the flip; their in-fences are the waits the model attributes to them.';
  }
  // Frames: a swatch per class and per repeat blame present in the data.
  function frameLegend(box) {
    const swatch = (colour, text) => {
      const item = el('span'), sw = el('i');
      sw.className = 'sw'; sw.style.background = colour;
      item.append(sw, el('span', text));
      box.append(item);
    };
    if (FF.list.some(f => !f.lost)) swatch(FAILED_COLOUR, 'frame failed');
    if (FF.list.some(f => f.lost)) swatch(FAILED_LOST_COLOUR, 'frame failed or lost');
    if (!FA.n) return;
    swatch(EXPECTED_COLOUR, 'frame expected (commit → target vblank)');
    for (const c of new Set(Array.from(FA.cls, k => D.frame_classes[k])))
      swatch(CLASS_COLOUR[c], c === 'on-time' ? 'frame on time' : c === 'not-judged' ? 'frame not judged' : 'late frame: ' + c);
    for (const b of new Set(D.repeats.map(repeatKind))) swatch(REPEAT_COLOUR[b], 'repeated vblank: ' + b);
  }
  // Plane waits are coloured by the timeline they waited for: one swatch each.
  function legend() {
    const box = document.getElementById('ft-legend');
    frameLegend(box);
    if (!P.n) return;
    const used = new Set(P.tl);
    for (const ti of used) {
      const t = D.timelines[ti], item = el('span'), sw = el('i');
      sw.className = 'sw'; sw.style.background = tlColour[ti] || '#7b8494';
      item.append(sw, el('span', 'plane waited for ' + (t ? t.name : '?')));
      box.append(item);
    }
  }

  // ---- latency histograms: init -> signal per timeline, log2 buckets of µs ----
  function histograms() {
    const box = document.getElementById('ft-hists'), BINS = 22;
    D.timelines.forEach((t, ti) => {
      const h = new Array(BINS).fill(0);
      for (let i = 0; i < F.n; i++)
        if (F.tl[i] === ti && F.dur[i] >= 0) h[Math.min(BINS - 1, Math.max(0, Math.floor(Math.log2(F.dur[i] / 1000 + 1))))]++;
      const fig = el('figure'), c = el('canvas'), cap = el('figcaption', t.name + ' (init → signal)');
      c.width = 176; c.height = 46;
      const g = c.getContext('2d'), max = Math.max(...h, 1);
      h.forEach((n, b) => {
        const bh = n ? Math.max(1, 30 * Math.log1p(n) / Math.log1p(max)) : 0;
        g.fillStyle = t.crtc >= 0 ? '#3b6fd8' : '#3a9b6b'; g.fillRect(b * 8, 32 - bh, 7, bh);
      });
      g.fillStyle = '#5a6375'; g.font = '9px system-ui, sans-serif'; g.textBaseline = 'top';
      g.fillText('1µs', 0, 35); g.fillText('1ms', 80, 35); g.fillText('1s', 160, 35);
      c.title = h.map((n, b) => '<' + fmtDur(Math.pow(2, b + 1) * 1000) + ': ' + n).filter(x => !x.endsWith(': 0')).join('\n');
      fig.append(c, cap);
      box.append(fig);
    });
  }

  // ---- input ----
  let drag = null;
  const local = e => { const r = canvas.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; };
  canvas.addEventListener('wheel', e => {
    e.preventDefault();
    const [x] = local(e);
    if (Math.abs(e.deltaX) > Math.abs(e.deltaY)) pan(e.deltaX / plotW);
    else zoom(Math.exp(e.deltaY * 0.002), Math.max(x, LABEL_W));
  }, { passive: false });
  canvas.addEventListener('mousedown', e => {
    const [x, yy] = local(e);
    drag = { x, yy, t0: view.t0, t1: view.t1, moved: false };
    canvas.classList.add('dragging');
  });
  window.addEventListener('mousemove', e => {
    const [x, yy] = local(e);
    if (drag) {
      if (Math.abs(x - drag.x) > 3) drag.moved = true;
      if (drag.moved) {
        const d = (x - drag.x) * (drag.t1 - drag.t0) / plotW;
        setView(drag.t0 - d, drag.t1 - d);
      }
      return;
    }
    hover = yy >= 0 && yy < totalH ? hit(x, yy) : null;
    if (!hover) { tip.hidden = true; return; }
    const f = fieldsOf(hover);
    tip.textContent = f.slice(0, 3).map(([k, v]) => k + ': ' + v).join('\n');
    tip.style.left = (x + 12) + 'px'; tip.style.top = (yy + 12) + 'px';
    tip.hidden = false;
  });
  window.addEventListener('mouseup', e => {
    if (!drag) return;
    canvas.classList.remove('dragging');
    const moved = drag.moved;
    drag = null;
    if (!moved) { const [x, yy] = local(e); select(hit(x, yy), false); }
  });
  window.addEventListener('keydown', e => {
    if (e.target.tagName === 'INPUT') return;
    const mid = LABEL_W + plotW / 2;
    switch (e.key) {
      case 'w': zoom(0.8, mid); break;
      case 's': zoom(1.25, mid); break;
      case 'a': pan(-0.1); break;
      case 'd': pan(0.1); break;
      case 'f': fit(); break;
      case '/': e.preventDefault(); document.getElementById('ft-search').focus(); break;
      default: return;
    }
  });
  document.getElementById('ft-fit').addEventListener('click', fit);
  document.getElementById('ft-search').addEventListener('keydown', e => { if (e.key === 'Enter') search(e.target.value); });
  window.addEventListener('resize', resize);

  // ---- read-only API for tests and the benchmark ----
  function locate(kind, i) {	// page coordinates of an item's end (spans) or tick
    const r = canvas.getBoundingClientRect();
    if (kind === 'vblank') {
      const l = lanes[laneOfPipe.get(V.pipe[i])];
      return { x: r.left + xOf(V.t[i]), y: r.top + l.y + LANE_PAD + VBL_H / 2 };
    }
    const S = SETS[kind];
    const x = (Math.max(xOf(S.t0[i]), LABEL_W) + Math.min(xOf(S.t1[i]), LABEL_W + plotW)) / 2;
    return { x: r.left + x, y: r.top + spanY(kind, i) + 5 };
  }
  window.fenceTimeline = Object.freeze({
    lanes: () => lanes.map(l => ({ kind: l.kind, name: l.name, rows: l.rows.length })),
    arrows: () => arrows.length,
    arrowTargets: () => arrows.map(a => a.end.kind),
    arrowsNotDrawn: () => notDrawn.map(a => ({ seq: a.l.seq, why: a.why })),
    late: () => D.late.map(l => ({ fence: l.fence, seq: l.seq, block: l.block ? l.block.fence : -1 })),
    view: () => ({ start: view.t0, end: view.t1, duration: D.duration }),
    selected: () => selection && { kind: selection.kind, i: selection.i, fields: fieldsOf(selection).map(f => f.map(String)) },
    search: () => ({ query: lastQuery, count: results.length, pos: resultPos }),
    counts: () => ({ fences: F.n, waits: W.n, vblanks: V.t.length, events: D.events, commits: C.n,
                     planeWaits: P.n, series: D.series }),
    // The first commit that waited for an in-fence, and what it links to;
    // preferably one whose flip vblank the trace holds (found here by a
    // plain scan, not by the page's lookup that the test checks).
    commitWithWaits: () => {
      const describe = i => ({ i, id: C.id[i], out: C.out[i], waits: inFenceWaits(i), inferred: !!(C.flags[i] & FL.inferred),
                               flipSeq: C.vblank[i], vblank: vblankOfCommit(i), near: vblanksNear(i) });
      const flipInTrace = i => {
        const pipe = (D.crtcs[C.crtc[i]] || {}).pipe;
        for (let k = 0; k < V.t.length; k++) if (V.pipe[k] === pipe && V.seq[k] === C.vblank[i]) return true;
        return false;
      };
      let first = -1;
      for (let i = 0; i < C.n; i++) {
        if (!inFenceWaits(i).length || C.out[i] < 0) continue;
        if (first < 0) first = i;
        if (!(C.flags[i] & FL.inferred) && (C.flags[i] & FL.flipped) && flipInTrace(i)) return describe(i);
      }
      return first < 0 ? null : describe(first);
    },
    // The frame lanes: per CRTC its frames with their class and the colour drawn.
    frames: () => Array.from(FA.seq, (seq, i) => ({ i, crtc: FA.crtc[i], seq, cls: className(i), judged: FE.dur[i] >= 0,
                                                   colour: spanColour(FA, i), late: FA.late[i] })),
    failedFrames: () => FF.list.map((f, i) => ({ i, crtc: f.crtc, seq: f.seq, lost: !!f.lost, commit: f.commit,
                                                 err: f.err, t0: FF.t0[i], t1: FF.t1[i], colour: spanColour(FF, i) })),
    repeats: () => D.repeats.map((r, i) => ({ i, crtc: r.crtc, first: r.first, count: r.count, blame: repeatKind(r),
                                              t0: r.t0, t1: r.t1, colour: REPEAT_COLOUR[repeatKind(r)] })),
    locateRepeat: i => {
      const r = D.repeats[i], b = canvas.getBoundingClientRect(), l = lanes[laneOfCrtc.get(r.crtc)];
      return { x: b.left + (Math.max(xOf(r.t0), LABEL_W) + Math.min(xOf(r.t1), LABEL_W + plotW)) / 2, y: b.top + l.y + LANE_PAD + VBL_H - 2 };
    },
    planeWaitColours: () => lanes.filter(l => l.kind === 'plane').map(l => l.rows.map(r => Array.from(r.idx, i => ({ tl: P.tl[i], colour: spanColour(P, i) })))),
    note: () => document.getElementById('ft-note').textContent,
    frameTimes: () => frameTimes.slice(),
    locate,
    draw: () => draw(),
  });

  summary();
  legend();
  histograms();
  resize();
}());
