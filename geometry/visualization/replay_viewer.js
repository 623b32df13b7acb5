// Teal's replay viewer: draws the recorded scene (TEAL_REPLAY, written by
// geometry/visualization/replay_scene.c) with three.js and plays it back.
// The page records its state for tests: body data-teal="ready" once a
// frame is drawn, "error" (with the message in #status) on any error; after
// a seek through the URL (#t=...) the element #probe holds, as JSON, the
// pixel each geometry's recorded origin projects to and its colour.
(function() {
'use strict';
var data = TEAL_REPLAY;
var statusBox = document.getElementById('status');
var statusNote = '';  // a problem worth a word that is no error

function fail(message) {
  document.body.setAttribute('data-teal', 'error');
  statusBox.textContent = 'error: ' + message;
  document.title = 'TEAL ERROR: ' + message;
}
window.addEventListener('error', function(e) {
  fail(e.message || String(e));
});
if (window.TEAL_ERRORS && TEAL_ERRORS.length) {  // from a script before this one
  fail(TEAL_ERRORS[0]);
}

// ---- shapes: three.js objects in the geometry's frame G -----------------
function material(rgba) {
  var m = new THREE.MeshPhongMaterial({color: new THREE.Color(rgba[0], rgba[1], rgba[2])});
  if (rgba[3] < 1) {
    m.transparent = true;
    m.opacity = rgba[3];
  }
  return m;
}

// three.js cylinders run along y; Teal's along z.
function alongZ(mesh) {
  mesh.rotation.x = Math.PI / 2;
  return mesh;
}

function capsule(g, mat) {
  var group = new THREE.Group();
  group.add(alongZ(
      new THREE.Mesh(new THREE.CylinderBufferGeometry(g.radius, g.radius, g.length, 32), mat)));
  [-1, 1].forEach(function(side) {
    var cap = new THREE.Mesh(new THREE.SphereBufferGeometry(g.radius, 32, 16), mat);
    cap.position.z = side * g.length / 2;
    group.add(cap);
  });
  return group;
}

function decodeBase64(text) {
  var bytes = atob(text), buf = new Uint8Array(bytes.length);
  for (var i = 0; i < bytes.length; i++) {
    buf[i] = bytes.charCodeAt(i);
  }
  return buf.buffer;
}

// A mesh from the file's contents; a file that could not be read or parsed
// is a small magenta wire box where it would be (the page goes on).
function parseMesh(g, mat) {
  if (g.mesh && g.mesh.format === 'obj') {
    var group = new THREE.OBJLoader().parse(g.mesh.text);
    group.traverse(function(c) {
      if (c.isMesh) {
        c.material = mat;
      }
    });
    return group;
  }
  if (g.mesh && g.mesh.format === 'stl') {
    return new THREE.Mesh(new THREE.STLLoader().parse(decodeBase64(g.mesh.base64)), mat);
  }
  if (g.mesh && g.mesh.format === 'triangles') {  // other formats, read by Teal
    var geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.Float32BufferAttribute(g.mesh.vertices, 3));
    geometry.setIndex(g.mesh.triangles);
    geometry.computeVertexNormals();
    return new THREE.Mesh(geometry, mat);
  }
  return null;
}

function mesh(g, mat) {
  var obj = null;
  try {
    obj = parseMesh(g, mat);
  } catch (e) {
    statusNote = 'mesh ' + g.file + ' could not be read (' + e.message + ')';
  }
  if (!obj) {
    obj = new THREE.Mesh(
        new THREE.BoxBufferGeometry(0.05, 0.05, 0.05),
        new THREE.MeshBasicMaterial({color: 0xff00ff, wireframe: true}));
    return obj;
  }
  obj.scale.setScalar(g.size[0]);
  return obj;
}

function convex(g, mat) {
  var points = [];
  for (var i = 0; i + 2 < g.vertices.length; i += 3) {
    points.push(new THREE.Vector3(g.vertices[i], g.vertices[i + 1], g.vertices[i + 2]));
  }
  return new THREE.Mesh(new THREE.ConvexBufferGeometry(points), mat);
}

var shapeMakers = {
  sphere: function(g, m) {
    return new THREE.Mesh(new THREE.SphereBufferGeometry(g.radius, 32, 16), m);
  },
  box: function(g, m) {
    return new THREE.Mesh(new THREE.BoxBufferGeometry(g.size[0], g.size[1], g.size[2]), m);
  },
  cylinder: function(g, m) {
    return alongZ(
        new THREE.Mesh(new THREE.CylinderBufferGeometry(g.radius, g.radius, g.length, 32), m));
  },
  capsule: capsule,
  ellipsoid: function(g, m) {
    var e = new THREE.Mesh(new THREE.SphereBufferGeometry(1, 32, 16), m);
    e.scale.set(g.size[0], g.size[1], g.size[2]);
    return e;
  },
  half_space: function(g, m) {  // its boundary plane z = 0, facing +z
    return new THREE.Mesh(new THREE.PlaneBufferGeometry(40, 40), m);
  },
  convex: convex,
  mesh: mesh
};

function poseMatrix(p) {  // [x, y, z, qw, qx, qy, qz]
  return new THREE.Matrix4().compose(
      new THREE.Vector3(p[0], p[1], p[2]), new THREE.Quaternion(p[4], p[5], p[6], p[3]),
      new THREE.Vector3(1, 1, 1));
}

// ---- the scene -----------------------------------------------------------
var view = document.getElementById('view');
var renderer = new THREE.WebGLRenderer({antialias: true, preserveDrawingBuffer: true});
renderer.setPixelRatio(window.devicePixelRatio || 1);
renderer.setClearColor(0xf2f4f7);
view.appendChild(renderer.domElement);
var scene = new THREE.Scene();
var camera = new THREE.PerspectiveCamera(45, 1, 0.01, 500);
camera.up.set(0, 0, 1);
scene.add(new THREE.HemisphereLight(0xffffff, 0x667788, 0.7));
var sun = new THREE.DirectionalLight(0xffffff, 0.6);
sun.position.set(3, -4, 6);
scene.add(sun);
var grid = new THREE.GridHelper(10, 20, 0x888888, 0xcccccc);
grid.rotation.x = Math.PI / 2;  // into the xy plane (z is up)
grid.position.z = 1e-3;         // just over a ground plane at z = 0
scene.add(grid);

var objects = data.geometries.map(function(g) {
  var maker = shapeMakers[g.shape];
  var obj = maker ? maker(g, material(g.rgba)) : new THREE.Group();
  var holder = new THREE.Group();  // carries X_WG; obj is in G
  holder.add(obj);
  holder.matrixAutoUpdate = false;
  scene.add(holder);
  return holder;
});

// body frames: X_WF = X_WG X_FG^-1 of the first geometry on each frame
var frames = [];
data.geometries.forEach(function(g, i) {
  if (frames.some(function(f) {
        return f.id === g.frame_id;
      })) {
    return;
  }
  var axes = new THREE.AxesHelper(0.2);
  axes.matrixAutoUpdate = false;
  axes.visible = false;
  scene.add(axes);
  frames.push({
    id: g.frame_id,
    geometry: i,
    axes: axes,
    X_GF: new THREE.Matrix4().getInverse(poseMatrix(g.X_FG))
  });
});

// ---- markers: contact points with force arrows, centres of mass ---------
var markerLayers = [new THREE.Group(), new THREE.Group()];  // by kind
markerLayers[1].visible = false;
markerLayers.forEach(function(layer) {
  scene.add(layer);
});
var pools = [[], []];
// arrows: the largest recorded force is drawn 0.3 m long
var forceScale = (function() {
  var largest = 0;
  (data.markers || []).forEach(function(row) {
    for (var i = 0; i + 6 < row.length; i += 7) {
      if (row[i] === 0) {
        largest = Math.max(largest, Math.hypot(row[i + 4], row[i + 5], row[i + 6]));
      }
    }
  });
  return largest > 0 ? 0.3 / largest : 0;
})();

function makeMarker(kind) {
  var group = new THREE.Group();
  var dot = new THREE.Mesh(
      new THREE.SphereBufferGeometry(kind === 0 ? 0.012 : 0.03, 16, 8),
      new THREE.MeshBasicMaterial({color: kind === 0 ? 0x202020 : 0xff9900, depthTest: false}));
  dot.renderOrder = 2;
  group.add(dot);
  if (kind === 0) {
    group.arrow =
        new THREE.ArrowHelper(new THREE.Vector3(0, 0, 1), new THREE.Vector3(), 0.1, 0x18a848);
    [group.arrow.line, group.arrow.cone].forEach(function(part) {
      part.material.depthTest = false;  // seen through the bodies in contact
      part.renderOrder = 2;
    });
    group.add(group.arrow);
  }
  markerLayers[kind].add(group);
  return group;
}

function showMarkers(k) {
  var row = data.markers ? data.markers[k] : [], used = [0, 0];
  for (var i = 0; i + 6 < row.length; i += 7) {
    var kind = row[i];
    if (kind !== 0 && kind !== 1) {
      continue;
    }
    var m = pools[kind][used[kind]] || (pools[kind][used[kind]] = makeMarker(kind));
    used[kind]++;
    m.visible = true;
    m.position.set(row[i + 1], row[i + 2], row[i + 3]);
    if (kind === 0) {
      var v = new THREE.Vector3(row[i + 4], row[i + 5], row[i + 6]);
      var length = v.length() * forceScale;
      m.arrow.visible = length > 1e-4;
      if (m.arrow.visible) {
        m.arrow.setDirection(v.normalize());
        m.arrow.setLength(length, Math.min(0.05, 0.3 * length), Math.min(0.03, 0.2 * length));
      }
    }
  }
  pools.forEach(function(pool, kind) {
    for (var j = used[kind]; j < pool.length; j++) {
      pool[j].visible = false;
    }
  });
}

var width = data.geometries.length * 7;
function showFrame(k) {
  var row = data.poses[k];
  objects.forEach(function(holder, i) {
    holder.matrix.copy(poseMatrix(row.slice(i * 7, i * 7 + 7)));
  });
  frames.forEach(function(f) {
    f.axes.matrix.multiplyMatrices(objects[f.geometry].matrix, f.X_GF);
  });
  showMarkers(k);
  if (data.panel) {
    applyPanel();
  }
}

// ---- the posing panel (teal-view): a slider per moving joint -------------
// Body i's pose: X_WP * motion(q - q0) * D0, motion a turn about the line
// (axis, point) or a slide along axis, all in the parent P.
var sliders = [];
function applyPanel() {
  var bodies = data.panel.bodies, X = [];
  function pose(i) {
    if (X[i]) {
      return X[i];
    }
    var b = bodies[i], motion = new THREE.Matrix4();
    if (i === 0 || b.parent < 0) {
      X[i] = motion;
      return motion;
    }
    var axis = new THREE.Vector3().fromArray(b.axis), dq = (b.q === undefined ? b.q0 : b.q) - b.q0;
    if (b.kind === 1) {
      var p = new THREE.Vector3().fromArray(b.point);
      motion.makeTranslation(p.x, p.y, p.z)
          .multiply(new THREE.Matrix4().makeRotationAxis(axis, dq))
          .multiply(new THREE.Matrix4().makeTranslation(-p.x, -p.y, -p.z));
    } else if (b.kind === 2) {
      motion.makeTranslation(axis.x * dq, axis.y * dq, axis.z * dq);
    }
    X[i] = pose(b.parent).clone().multiply(motion).multiply(poseMatrix(b.D0));
    return X[i];
  }
  data.geometries.forEach(function(g, i) {
    var body = data.panel.geometry_body[g.id];
    if (body !== undefined) {
      objects[i].matrix.multiplyMatrices(pose(body), poseMatrix(g.X_FG));
    }
  });
  frames.forEach(function(f) {
    f.axes.matrix.multiplyMatrices(objects[f.geometry].matrix, f.X_GF);
  });
}

function buildPanel() {
  var box = document.createElement('div');
  box.id = 'joints';
  box.style.cssText = 'position:absolute;right:0;top:0;max-height:80%;overflow:auto;' +
      'padding:6px 10px;background:rgba(255,255,255,.85)';
  data.panel.bodies.forEach(function(b) {
    if (!b.kind) {
      return;
    }
    var row = document.createElement('div'), label = document.createElement('label');
    var input = document.createElement('input');
    input.type = 'range';
    input.min = b.lo;
    input.max = b.hi;
    input.step = 'any';
    input.value = b.q0;
    b.q = b.q0;
    input.oninput = function() {
      b.q = parseFloat(input.value);
      applyPanel();
    };
    label.textContent = b.name + ' ';
    label.appendChild(input);
    row.appendChild(label);
    box.appendChild(row);
    sliders.push({body: b, input: input});
  });
  document.body.appendChild(box);
}

// ---- plots (dygraphs): one per plot, a cursor at the replay's time --------
var graphs = [];
function buildPlots() {
  var box = document.createElement('div');
  box.id = 'plots';
  box.style.cssText = 'position:absolute;left:0;bottom:40px;width:30%;max-height:45%;' +
      'overflow:auto;padding:4px;background:rgba(255,255,255,.9)';
  document.body.appendChild(box);
  data.plots.forEach(function(plot) {
    var holder = document.createElement('div'), cursor = document.createElement('div');
    holder.style.cssText = 'position:relative;height:150px;width:100%;margin-bottom:4px';
    cursor.style.cssText = 'position:absolute;top:0;bottom:0;width:1px;background:#d33;' +
        'pointer-events:none;z-index:5';
    box.appendChild(holder);
    var g = new Dygraph(holder, plot.rows, {
      labels: plot.labels,
      title: plot.title || '',
      titleHeight: 18,
      legend: 'onmouseover',
      clickCallback: function(e, x) {
        setPlaying(false);
        seek(x);
      }
    });
    holder.appendChild(cursor);
    graphs.push({graph: g, cursor: cursor});
  });
}

function moveCursors() {
  graphs.forEach(function(p) {
    p.cursor.style.left = p.graph.toDomXCoord(time) + 'px';
  });
}

// "#q=0.5,-1" sets the sliders in order.
function poseFromHash() {
  var m = /(?:^#|&)q=([-+0-9.eE,]+)/.exec(window.location.hash);
  if (m && data.panel) {
    m[1].split(',').forEach(function(v, i) {
      if (sliders[i]) {
        sliders[i].body.q = parseFloat(v);
        sliders[i].input.value = v;
      }
    });
    applyPanel();
  }
}

// The last frame at or before t.
function frameAt(t) {
  var lo = 0, hi = data.times.length - 1;
  if (hi < 0 || t <= data.times[0]) {
    return 0;
  }
  while (lo < hi) {
    var mid = (lo + hi + 1) >> 1;
    if (data.times[mid] <= t) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

// ---- camera: looks at the scene's first frame ------------------------------
// Whether geometry i's recorded pose changes during the run.
function moves(i) {
  var first = data.poses[0];
  return data.poses.some(function(row) {
    for (var c = 0; c < 7; c++) {
      if (Math.abs(row[i * 7 + c] - first[i * 7 + c]) > 1e-6) {
        return true;
      }
    }
    return false;
  });
}

// Frames the geometries that move (all of them when none does) at the
// first frame and at every recorded origin of the run (sampled), so that a
// moving body stays in view and a long static rail does not push it away.
function frameCamera() {
  var box = new THREE.Box3(), moving = data.geometries.map(function(g, i) {
    return data.poses.length > 1 && moves(i);
  });
  var any = moving.indexOf(true) >= 0;
  var framed = function(i) {
    return data.geometries[i].shape !== 'half_space' && (!any || moving[i]);
  };
  objects.forEach(function(holder, i) {
    if (framed(i)) {
      box.expandByObject(holder);
    }
  });
  var step = Math.max(1, Math.floor(data.poses.length / 200));
  for (var k = 0; k < data.poses.length; k += step) {
    data.geometries.forEach(function(g, i) {
      if (framed(i)) {
        var row = data.poses[k];
        box.expandByPoint(new THREE.Vector3(row[i * 7], row[i * 7 + 1], row[i * 7 + 2]));
      }
    });
  }
  var centre = new THREE.Vector3(), size = 1;
  if (!box.isEmpty()) {
    box.getCenter(centre);
    size = Math.max(box.getSize(new THREE.Vector3()).length(), 0.5);
  }
  camera.position.set(centre.x + 1.2 * size, centre.y - 1.6 * size, centre.z + 0.8 * size);
  controls.target.copy(centre);
  controls.update();
}
var controls = new THREE.OrbitControls(camera, renderer.domElement);

// ---- playback ------------------------------------------------------------------
var t0 = data.times.length ? data.times[0] : 0;
var t1 = data.times.length ? data.times[data.times.length - 1] : 0;
var time = t0, playing = true, last = null;
var slider = document.getElementById('slider');
var playButton = document.getElementById('play');
var speed = document.getElementById('speed');
slider.min = t0;
slider.max = t1;

function setPlaying(on) {
  playing = on;
  playButton.textContent = on ? 'Pause' : 'Play';
}

function seek(t) {
  time = Math.min(Math.max(t, t0), t1);
  slider.value = time;
  document.getElementById('time').textContent = 't = ' + time.toFixed(3) + ' s';
  if (data.times.length) {
    showFrame(frameAt(time));
  }
}

function seekFromHash() {
  var m = /(?:^#|&)t=([-+0-9.eE]+)/.exec(window.location.hash);
  if (m) {
    setPlaying(false);
    seek(parseFloat(m[1]));
  }
  return !!m;
}

playButton.onclick = function() {
  setPlaying(!playing);
};
slider.oninput = function() {
  setPlaying(false);
  seek(parseFloat(slider.value));
};
document.getElementById('frames').onchange = function(e) {
  frames.forEach(function(f) {
    f.axes.visible = e.target.checked;
  });
};
if (TEAL_REPLAY.showFrames) {  // the writer's show_frames: frames drawn from the start
  var framesBox = document.getElementById('frames');
  framesBox.checked = true;
  framesBox.onchange({target: framesBox});
}
document.getElementById('contacts').onchange = function(e) {
  markerLayers[0].visible = e.target.checked;
};
document.getElementById('com').onchange = function(e) {
  markerLayers[1].visible = e.target.checked;
};
window.addEventListener('hashchange', function() {
  seekFromHash();
  poseFromHash();
});

// "#...&size=800x600" fixes the drawing size whatever the window (tests
// compare runs whose windows differ).
var fixed = /(?:^#|&)size=([0-9]+)x([0-9]+)/.exec(window.location.hash);
function viewWidth() {
  return fixed ? +fixed[1] : view.clientWidth;
}
function viewHeight() {
  return fixed ? +fixed[2] : view.clientHeight;
}
function resize() {
  renderer.setSize(viewWidth(), viewHeight());
  camera.aspect = viewWidth() / Math.max(viewHeight(), 1);
  camera.updateProjectionMatrix();
}
window.addEventListener('resize', resize);

// Where each geometry's recorded origin lands on screen (for tests).
var probe = null;
function writeProbe() {
  var row = data.poses[frameAt(time)] || [], out = [], ray = new THREE.Raycaster();
  data.geometries.forEach(function(g, i) {
    var p = new THREE.Vector3(row[i * 7], row[i * 7 + 1], row[i * 7 + 2]);
    if (data.panel) {  // posed by the sliders: where the model is drawn
      p.setFromMatrixPosition(objects[i].matrix);
    }
    // visible: the first geometry on the line of sight to the origin is g
    ray.set(camera.position, p.clone().sub(camera.position).normalize());
    var hits = ray.intersectObjects(objects, true), owner = hits.length ? hits[0].object : null;
    while (owner && objects.indexOf(owner) < 0) {
      owner = owner.parent;
    }
    p.project(camera);
    out.push({
      name: g.name,
      rgba: g.rgba,
      shape: g.shape,
      visible: owner === objects[i],
      x: (p.x + 1) / 2 * viewWidth(),
      y: (1 - p.y) / 2 * viewHeight()
    });
  });
  if (!probe) {
    probe = document.createElement('pre');
    probe.id = 'probe';
    probe.style.display = 'none';
    document.body.appendChild(probe);
  }
  probe.textContent =
      JSON.stringify({time: time, width: viewWidth(), height: viewHeight(), geometries: out});
}

function tick(now) {
  if (playing && last !== null && t1 > t0) {
    var t = time + (now - last) / 1000 * parseFloat(speed.value);
    seek(t > t1 ? t0 : t);  // loops
  }
  last = now;
  renderer.render(scene, camera);
  moveCursors();
  if (!playing && window.location.hash) {
    writeProbe();
  }
  if (document.body.getAttribute('data-teal') !== 'error') {
    document.body.setAttribute('data-teal', 'ready');
  }
  requestAnimationFrame(tick);
}

resize();
seek(t0);
scene.updateMatrixWorld(true);
frameCamera();
if (data.panel) {
  buildPanel();
}
if (data.plots && window.Dygraph) {
  buildPlots();
}
seekFromHash();
poseFromHash();
if (document.body.getAttribute('data-teal') !== 'error') {
  document.title = data.title;
  statusBox.textContent = data.title + ' (' + data.times.length + ' frames, ' +
      data.geometries.length + ' geometries)' + (width ? '' : ': nothing to draw') +
      (statusNote ? '; ' + statusNote : '');
}
requestAnimationFrame(tick);
})();
