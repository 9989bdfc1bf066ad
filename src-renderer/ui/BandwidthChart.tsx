// The 60-second live chart of total kbit/s in and out (uPlot). Renders the store's stats history; draws only.
import { type ReactElement, useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { HISTORY_SECONDS, type StatsHistory } from '../store/stats-history';
import { useAppState } from '../view/context';

const IN_COLOR = '#4f46e5';
const OUT_COLOR = '#f08c00';
const HEIGHT = 150;

function options(width: number, latest: { t: number }): uPlot.Options {
  const axis = {
    stroke: '#5f6672',
    grid: { stroke: '#eef0f4', width: 1 },
    ticks: { show: false },
    font: '11px system-ui, sans-serif',
  };
  return {
    width,
    height: HEIGHT,
    legend: { show: false },
    cursor: { show: false },
    scales: {
      x: { time: false, range: () => [latest.t - HISTORY_SECONDS, latest.t] },
      y: { range: (_u, _min, max) => [0, Math.max(10, max * 1.15)] },
    },
    axes: [
      {
        ...axis,
        values: (_u, splits) => splits.map((v) => `${Math.round(v - latest.t)}s`),
        space: 50,
      },
      {
        ...axis,
        size: 40,
        values: (_u, splits) =>
          splits.map((v) => (v >= 1000 ? `${(v / 1000).toFixed(1)}M` : `${Math.round(v)}`)),
      },
    ],
    series: [
      {},
      {
        label: 'In',
        stroke: IN_COLOR,
        width: 2,
        fill: 'rgba(79,70,229,0.10)',
        points: { show: false },
      },
      {
        label: 'Out',
        stroke: OUT_COLOR,
        width: 2,
        fill: 'rgba(240,140,0,0.08)',
        points: { show: false },
      },
    ],
  };
}

function data(h: StatsHistory): uPlot.AlignedData {
  return [[...h.t], [...h.kbpsIn], [...h.kbpsOut]];
}

export function BandwidthChart(): ReactElement {
  const history = useAppState((s) => s.history);
  const hostRef = useRef<HTMLDivElement>(null);
  const plotRef = useRef<uPlot | null>(null);
  const latest = useRef({ t: 0 });

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const plot = new uPlot(options(host.clientWidth, latest.current), [[], [], []], host);
    plotRef.current = plot;
    const ro = new ResizeObserver(() => {
      plot.setSize({ width: host.clientWidth, height: HEIGHT });
    });
    ro.observe(host);
    return () => {
      ro.disconnect();
      plot.destroy();
      plotRef.current = null;
    };
  }, []);

  useEffect(() => {
    latest.current.t = history.t.at(-1) ?? 0;
    plotRef.current?.setData(data(history));
  }, [history]);

  const lastIn = history.kbpsIn.at(-1) ?? 0;
  const lastOut = history.kbpsOut.at(-1) ?? 0;
  return (
    <figure className="chart">
      <figcaption className="chart-legend">
        <span>
          <i style={{ background: IN_COLOR }} /> In {lastIn.toFixed(1)}
        </span>
        <span>
          <i style={{ background: OUT_COLOR }} /> Out {lastOut.toFixed(1)}
        </span>
        <span className="muted">kbit/s · last 60 s</span>
      </figcaption>
      <div
        ref={hostRef}
        className="chart-plot"
        role="img"
        aria-label="Total kbit/s in and out over the last 60 seconds"
      />
    </figure>
  );
}
