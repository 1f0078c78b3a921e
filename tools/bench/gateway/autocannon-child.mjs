// The load generator, in its own process so it never competes with the servers under
// test for their event loop. Each request carries the next header set in turn (shared
// across connections), so with at least as many sets as connections the requests in
// flight at any moment come from different callers.
import autocannon from "autocannon";

const { url, seconds, connections, headerSets } = JSON.parse(process.argv[2]);
let next = 0;
const result = await autocannon({
  url,
  connections,
  duration: seconds,
  requests: [{ method: "GET", setupRequest: (request) => ({ ...request, headers: { ...request.headers, ...headerSets[next++ % headerSets.length] } }) }],
});
process.stdout.write(
  JSON.stringify({ requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors, non2xx: result.non2xx }),
);
