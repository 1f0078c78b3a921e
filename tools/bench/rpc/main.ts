// `npm run bench:rpc`: what one internal unary call costs on the wire (cluster composition),
// client and server each in their own process. Three pairs call the same echo method:
//   raw node:http2     - request/response with no RPC framework: the floor (baseline)
//   connect-node       - connect-node's stock Connect client and handler (binary, h2c)
//   platform           - createServiceTransport("connect") and createService: the platform's
//                        own Connect unary client and server fast path
// Prints calls/s and CPU per call on each side, and each pair's ratio to the floor, at one
// call in flight and at BENCH_RPC_CONCURRENCY (32). Pairs alternate in short rounds.
import { fork } from "node:child_process";
import * as http2 from "node:http2";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { ProbeService } from "@signage/contracts/signage/testing/v1/probe_pb";
import { createServiceTransport } from "@signage/platform";
import type { ServerPorts } from "./servers.js";
import { cpuSeconds } from "../support/process-cpu.js";

const SECONDS = Number(process.env.BENCH_RPC_SECONDS || 3);
const ROUNDS = Number(process.env.BENCH_RPC_ROUNDS || 3);
const CONCURRENCY = Number(process.env.BENCH_RPC_CONCURRENCY || 32);


type Call = () => Promise<unknown>;

function rawCall(url: string): Call {
  const session = http2.connect(url);
  session.unref();
  const body = Buffer.from([0x0a, 0x02, 0x68, 0x69]);
  return () =>
    new Promise((resolve, reject) => {
      const stream = session.request({ ":method": "POST", ":path": "/signage.testing.v1.ProbeService/Public", "content-type": "application/proto" });
      stream.on("data", () => {});
      stream.on("end", resolve);
      stream.on("error", reject);
      stream.end(body);
    });
}

interface Sample {
  calls: number;
  seconds: number;
  clientCpu: number;
  serverCpu: number;
}

async function drive(call: Call, concurrency: number, seconds: number, serverPid: number): Promise<Sample> {
  let calls = 0;
  let stop = false;
  const worker = async () => {
    while (!stop) {
      await call();
      calls++;
    }
  };
  const client0 = cpuSeconds(process.pid);
  const server0 = cpuSeconds(serverPid);
  const started = performance.now();
  const workers = Array.from({ length: concurrency }, worker);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  stop = true;
  await Promise.all(workers);
  return { calls, seconds: (performance.now() - started) / 1000, clientCpu: cpuSeconds(process.pid) - client0, serverCpu: cpuSeconds(serverPid) - server0 };
}

const servers = fork(new URL("./servers.ts", import.meta.url), [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
const ports = await new Promise<ServerPorts>((resolve, reject) => {
  servers.once("message", (m) => resolve(m as ServerPorts));
  servers.once("exit", (code) => reject(new Error(`bench servers exited (${code})`)));
});
const url = (port: number) => `http://127.0.0.1:${port}`;
const pairs: [string, Call][] = [
  ["raw node:http2 (floor)", rawCall(url(ports.raw))],
  ["connect-node client + handler", ((c) => () => c.public({ text: "hi" }))(createClient(ProbeService, createConnectTransport({ baseUrl: url(ports.connectNode), httpVersion: "2", useBinaryFormat: true })))],
  ["platform client + server", ((c) => () => c.public({ text: "hi" }))(createClient(ProbeService, createServiceTransport({ baseUrl: url(ports.platform), protocol: "connect" })))],
];

console.log(`# one unary call, client and server in separate processes; ${ROUNDS} alternating rounds of ${SECONDS} s per pair and concurrency\n`);
console.log("| pair | in flight | calls/s | client CPU/call | server CPU/call | calls/s vs floor | CPU/call (both sides) vs floor |");
console.log("|---|---|---|---|---|---|---|");
for (const concurrency of [1, CONCURRENCY]) {
  for (const [, call] of pairs) await drive(call, concurrency, 1, servers.pid!); // warm up
  const totals = pairs.map(() => ({ calls: 0, seconds: 0, clientCpu: 0, serverCpu: 0 }));
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < pairs.length; i++) {
      const s = await drive(pairs[i][1], concurrency, SECONDS, servers.pid!);
      for (const key of ["calls", "seconds", "clientCpu", "serverCpu"] as const) totals[i][key] += s[key];
    }
  }
  const us = (cpu: number, calls: number) => (cpu / calls) * 1e6;
  const floor = totals[0];
  const floorRate = floor.calls / floor.seconds;
  const floorCpu = us(floor.clientCpu + floor.serverCpu, floor.calls);
  totals.forEach((t, i) => {
    const rate = t.calls / t.seconds;
    const cpu = us(t.clientCpu + t.serverCpu, t.calls);
    console.log(
      `| ${pairs[i][0]} | ${concurrency} | ${rate.toFixed(0)} | ${us(t.clientCpu, t.calls).toFixed(0)} us | ${us(t.serverCpu, t.calls).toFixed(0)} us | ${((rate / floorRate) * 100).toFixed(0)}% | ${(cpu / floorCpu).toFixed(2)}x |`,
    );
  });
}
servers.disconnect();
