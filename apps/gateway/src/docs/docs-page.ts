// A self-contained API reference page rendering /openapi.json (no CDN: the
// page must work on machines without internet access).
export const DOCS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Signage API</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;max-width:1100px}
h2{border-bottom:1px solid #ddd;padding-bottom:.2rem;margin-top:2rem}
.op{border:1px solid #e3e3e3;border-radius:6px;margin:.5rem 0;padding:.5rem .8rem}
.verb{display:inline-block;min-width:4.5rem;font-weight:700}
.GET{color:#0a7}.POST{color:#06c}.PUT{color:#b70}.DELETE{color:#c22}.PATCH{color:#85c}
code{background:#f4f4f4;padding:0 .25rem;border-radius:3px}
.role{float:right;font-size:12px;background:#eef;padding:0 .4rem;border-radius:3px}
table{border-collapse:collapse;margin:.3rem 0}td{padding:0 .8rem 0 0;vertical-align:top}
</style></head><body>
<h1>Signage platform API</h1>
<p>Generated from the service contracts. Machine-readable: <a href="/openapi.json">/openapi.json</a>. Get a token with <code>POST /oauth/token</code> (form: <code>grant_type=password&amp;username=..&amp;password=..</code>) and send it as <code>Authorization: Bearer &lt;token&gt;</code>.</p>
<div id="ops">Loading…</div>
<script>
fetch('/openapi.json').then(r=>r.json()).then(spec=>{
  const byTag={};
  for(const [path,ops] of Object.entries(spec.paths)) for(const [verb,op] of Object.entries(ops)) (byTag[op.tags[0]]??=[]).push({path,verb:verb.toUpperCase(),op});
  const esc=s=>String(s).replace(/[&<>"]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]));
  const type=s=>s.$ref?s.$ref.split('/').pop():s.type==='array'?'array of '+type(s.items||{}):(s.enum?s.enum.join(' | '):(s.type||'any'));
  document.getElementById('ops').innerHTML=Object.keys(byTag).sort().map(tag=>'<h2>'+esc(tag)+'</h2>'+byTag[tag].map(({path,verb,op})=>
    '<div class="op"><span class="role">'+esc(op['x-min-role'])+'</span><span class="verb '+verb+'">'+verb+'</span><code>'+esc(path)+'</code> '+esc(op.summary)+
    '<div>'+esc(op.description||'')+'</div>'+(op.parameters.length?'<table>'+op.parameters.map(p=>'<tr><td><code>'+esc(p.name)+'</code></td><td>'+p.in+'</td><td>'+esc(type(p.schema))+'</td></tr>').join('')+'</table>':'')+'</div>').join('')).join('');
});
</script></body></html>`;
