// report.js: the HTML report's behaviour.  report-html.c embeds it in the
// page, allowed by its SHA-256 in the Content-Security-Policy.  Kept
// ES5-plain and small: filters and the hash are one state object; render()
// redraws from it.  It reads the JSON of <script id="data"> (and, when a
// node is opened, of "views"), and only ever sets textContent and
// attributes, never markup.
//
// The Makefile embeds this file as the C string report_js: lines that
// start with // and empty lines are left out, a line that starts with a
// tab continues the line before it (the page gets it joined, with no
// space), every other line ends in a newline.

(function(){'use strict';
var D=JSON.parse(document.getElementById('data').textContent),V=null;
var SEV=['info','warning','critical'],L=D.layers;
var st={node:'',rule:'',layer:'',sev:'',q:'',sort:'sev',dir:-1,limit:200};
function $(id){return document.getElementById(id);}
function el(t,c,x){var e=document.createElement(t);if(c)e.className=c;
	if(x!==undefined)e.textContent=x;return e;}
function frag(n,r){return '#'+encodeURIComponent(n||'')+'/'+encodeURIComponent(r||'');}
// findings: [node, sev, layer, rule, component, summary, evidence, rem]
var F=D.f,NI={};D.nodes.forEach(function(n,i){NI[n[0]]=i;});
var cell={};F.forEach(function(f){var k=f[0]+' '+f[2],c=cell[k];
	if(!c)c=cell[k]={n:0,w:-1,r:{}};c.n++;if(f[1]>c.w)c.w=f[1];c.r[f[3]]=1;});
function grid(){var t=$('grid'),h=el('tr');h.appendChild(el('th','','node'));
	L.forEach(function(l){var th=el('th','',l);th.title=D.lrules[l]+' check(s)';h.appendChild(th);});
	t.appendChild(h);var order=D.nodes.map(function(n,i){return i;});
	order.sort(function(a,b){return D.nodes[b][3]-D.nodes[a][3]||(D.nodes[a][0]<D.nodes[b][0]?-1:1);});
	var fr=document.createDocumentFragment();order.forEach(function(i){var n=D.nodes[i],tr=el('tr');
	var a=el('a','',n[0]);a.href=frag(n[0],'');var td=el('td','name');td.appendChild(a);tr.appendChild(td);
	L.forEach(function(l,j){var c=cell[i+' '+j],td=el('td');td.dataset.node=n[0];td.dataset.layer=l;
	if(c){td.className='sev-'+c.w;td.textContent=c.n;td.title=n[0]+' '+l+': '+Object.keys(c.r).join(', ');}
	else if(!D.lrules[l]||n[4][j]>=D.lrules[l]){td.className='sev-na';td.textContent='\u2013';
	td.title=n[0]+' '+l+': '+(D.lrules[l]?'not checked (evidence missing)':'no checks of this layer yet');}
	else{td.className='sev-ok';td.title=n[0]+' '+l+': no findings';}
	tr.appendChild(td);});fr.appendChild(tr);});t.appendChild(fr);
	t.addEventListener('click',function(e){var td=e.target.closest('td');
	if(!td||!td.dataset.layer)return;st.node=td.dataset.node;st.layer=td.dataset.layer;st.rule='';
	st.limit=200;go();$('findings').scrollIntoView();});}
function opts(id,vals,all){var s=$(id);s.appendChild(new Option(all,''));
	vals.forEach(function(v){s.appendChild(new Option(v[1],v[0]));});}
function match(f){if(st.node&&D.nodes[f[0]][0]!==st.node)return false;
	if(st.rule&&f[3]!==st.rule)return false;if(st.layer&&L[f[2]]!==st.layer)return false;
	if(st.sev==='w'){if(f[1]<1)return false;}else if(st.sev!==''&&f[1]!==+st.sev)return false;
	if(st.q){var q=st.q.toLowerCase(),s=[D.nodes[f[0]][0],f[3],f[4],f[5],D.rules[f[3]]?D.rules[f[3]][0]:'']
	.concat(f[6].map(function(e){return e[0]+' '+e[1];})).join('\n').toLowerCase();
	if(s.indexOf(q)<0)return false;}return true;}
var KEY={sev:function(f){return f[1];},node:function(f){return D.nodes[f[0]][0];},
	layer:function(f){return f[2];},rule:function(f){return f[3];},component:function(f){return f[4];},
	summary:function(f){return f[5];}};
function cmp(a,b){var k=KEY[st.sort],x=k(a),y=k(b);if(x<y)return -st.dir;if(x>y)return st.dir;
	if(a[1]!==b[1])return b[1]-a[1];return D.nodes[a[0]][0]<D.nodes[b[0]][0]?-1:1;}
function row(f){var tr=el('tr'),n=D.nodes[f[0]][0],r=D.rules[f[3]];
	tr.appendChild(el('td','b-'+f[1],SEV[f[1]]));var a=el('a','',n);a.href=frag(n,'');
	var td=el('td');td.appendChild(a);tr.appendChild(td);tr.appendChild(el('td','',L[f[2]]));
	a=el('a','',f[3]);a.href=frag(n,f[3]);td=el('td');td.appendChild(a);
	if(r)td.appendChild(el('div','muted',r[0]));tr.appendChild(td);
	tr.appendChild(el('td','',f[4]));td=el('td');td.appendChild(el('div','',f[5]));
	f[6].forEach(function(e){td.appendChild(el('div','ev',e[0]+': '+e[1]));});
	if(f[7]>=0){var d=el('details','fix'),s=el('summary','','remediation');d.appendChild(s);
	d.appendChild(el('div','',D.rem[f[7]]));td.appendChild(d);}tr.appendChild(td);
	tr.dataset.node=n;tr.dataset.rule=f[3];return tr;}
function table(){var t=$('findings'),b=t.tBodies[0],sel=F.filter(match).sort(cmp);
	var fr=document.createDocumentFragment();sel.slice(0,st.limit).forEach(function(f){
	var tr=row(f);if(st.node&&st.rule&&tr.dataset.rule===st.rule)tr.className='hit';fr.appendChild(tr);});
	b.textContent='';b.appendChild(fr);$('shown').textContent=Math.min(sel.length,st.limit)+' of '+
	sel.length+' finding(s) shown ('+F.length+' in the report)';$('more').hidden=sel.length<=st.limit;}
function views(){if(V===null)V=JSON.parse($('views').textContent);return V;}
function panel(){var p=$('node');p.textContent='';if(!st.node||NI[st.node]===undefined){p.hidden=true;return;}
	var i=NI[st.node],n=D.nodes[i];p.hidden=false;p.appendChild(el('h2','',n[0]));
	p.appendChild(el('div','muted','bundle '+n[1]+', collected '+n[2]));
	var tl=$('tl-'+i);if(tl){var a=el('a','tl-link','counter timeline (error and pause rates)');a.href='#';
	a.addEventListener('click',function(e){e.preventDefault();tl.scrollIntoView();});var d0=el('div');d0.appendChild(a);p.appendChild(d0);}
	var sk=D.sk.filter(function(s){return s[0]===i;});if(sk.length){var d=el('details');
	d.appendChild(el('summary','',sk.length+' check(s) could not run'));sk.forEach(function(s){
	d.appendChild(el('div','ev',s[1]+': '+D.reasons[s[2]]));});p.appendChild(d);}
	var v=views()[i];if(typeof v==='string'){p.appendChild(el('div','muted',v));return;}
	(v||[]).forEach(function(x){var d=el('details'),s=el('summary','',x[0]);d.appendChild(s);
	d.appendChild(el('pre','',x[1]));d.dataset.view=x[0];p.appendChild(d);});}
function sync(){$('f-sev').value=st.sev;$('f-layer').value=st.layer;$('f-node').value=st.node;
	$('f-rule').value=st.rule;$('f-q').value=st.q;
	document.querySelectorAll('#grid td.sel').forEach(function(td){td.classList.remove('sel');});
	if(st.node&&st.layer){var q='#grid td[data-layer="'+st.layer+'"]';
	document.querySelectorAll(q).forEach(function(td){if(td.dataset.node===st.node)td.classList.add('sel');});}}
function hash(){var p=new URLSearchParams();['layer','sev','q'].forEach(function(k){if(st[k])p.set(k,st[k]);});
	if(st.sort!=='sev'||st.dir!==-1){p.set('sort',st.sort);p.set('dir',st.dir);}var s=p.toString();
	return frag(st.node,st.rule)+(s?'?'+s:'');}
function render(){sync();panel();table();
	if(st.node&&st.rule){var h=document.querySelector('#findings tr.hit');if(h)h.scrollIntoView({block:'center'});}}
function go(){var h=hash();if(h==='#/')h=' ';if(location.hash!==h)history.replaceState(null,'',h===' '?location.pathname:h);render();}
function load(){var h=location.hash.slice(1),q='',i=h.indexOf('?');if(i>=0){q=h.slice(i+1);h=h.slice(0,i);}
	var p=h.split('/'),u=new URLSearchParams(q);function d(s){try{return decodeURIComponent(s||'');}catch(e){return '';}}
	st.node=d(p[0]);st.rule=d(p[1]);st.layer=u.get('layer')||'';st.sev=u.get('sev')||'';st.q=u.get('q')||'';
	st.sort=KEY[u.get('sort')]?u.get('sort'):'sev';st.dir=u.get('dir')==='1'?1:-1;st.limit=200;render();}
grid();opts('f-sev',[['w','warning and above'],['2','critical'],['1','warning'],['0','info']],'any severity');
	opts('f-layer',L.map(function(l){return [l,l];}),'any layer');
	opts('f-node',D.nodes.map(function(n){return [n[0],n[0]];}).sort(),'any node');
	opts('f-rule',Object.keys(D.rules).filter(function(r){return D.rules[r][2];}).sort().map(function(r){return [r,r];}),'any rule');
['sev','layer','node','rule'].forEach(function(k){$('f-'+k).addEventListener('change',function(e){
	st[k]=e.target.value;st.limit=200;go();});});
$('f-q').addEventListener('input',function(e){st.q=e.target.value;st.limit=200;go();});
$('f-clear').addEventListener('click',function(){st.node=st.rule=st.layer=st.sev=st.q='';go();});
$('more').addEventListener('click',function(){st.limit+=1000;table();});
document.querySelectorAll('#findings th').forEach(function(th){th.addEventListener('click',function(){
	var k=th.dataset.k;if(st.sort===k)st.dir=-st.dir;else{st.sort=k;st.dir=k==='sev'?-1:1;}go();});});
window.addEventListener('hashchange',load);load();document.body.dataset.ready='1';
})();
