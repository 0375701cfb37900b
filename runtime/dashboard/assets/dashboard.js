// The dashboard page: fills the tiles and tables from api/summary every few seconds, the database health from
// api/databases, and four uPlot charts from api/series for the chosen range (and operation, when a row of the
// operations table is chosen). Every value is written with textContent: nothing from the server becomes markup.
(function () {
  'use strict';
  var config = JSON.parse(document.getElementById('tessera-page-config').textContent);
  var DATABASES_REFRESH_MS = 10000;
  var SERIES_REFRESH_MS = { hour: 10000, day: 60000, history: 60000 };
  var state = { range: 'hour', operation: null, charts: {}, health: {}, summary: null };

  // ---- formatting ----
  function integer(value) {
    return value === null || value === undefined ? '–' : Math.round(value).toLocaleString('en-US');
  }
  function rate(value) {
    if (value === null || value === undefined) return '–';
    if (value < 10) return value.toFixed(2);
    if (value < 100) return value.toFixed(1);
    return integer(value);
  }
  function percent(value) {
    if (value === null || value === undefined) return '–';
    if (value === 0) return '0%';
    return (value < 10 ? value.toFixed(2) : value.toFixed(1)) + '%';
  }
  function millis(value) {
    if (value === null || value === undefined) return '–';
    if (value < 1) return value.toFixed(2) + ' ms';
    if (value < 10) return value.toFixed(1) + ' ms';
    if (value < 1000) return Math.round(value) + ' ms';
    return (value / 1000).toFixed(2) + ' s';
  }
  function megabytes(bytes) {
    return bytes === null || bytes === undefined ? '–' : (bytes / 1048576).toFixed(1) + ' MB';
  }
  function duration(seconds) {
    if (seconds < 60) return Math.floor(seconds) + ' s';
    if (seconds < 3600) return Math.floor(seconds / 60) + ' min';
    if (seconds < 86400) return Math.floor(seconds / 3600) + ' h ' + Math.floor((seconds % 3600) / 60) + ' min';
    return Math.floor(seconds / 86400) + ' d ' + Math.floor((seconds % 86400) / 3600) + ' h';
  }
  function clock(ms) {
    return new Date(ms).toLocaleTimeString('en-GB');
  }

  // ---- requests ----
  function get(path) {
    return fetch(path, { credentials: 'same-origin', cache: 'no-store', headers: { Accept: 'application/json' } }).then(function (response) {
      if (response.status === 401) {
        window.location.reload(); // the session ended: the page route shows the sign-in form
        throw new Error('signed out');
      }
      if (!response.ok) throw new Error(path + ' answered ' + response.status);
      return response.json();
    });
  }

  function setLive(ok, text) {
    var live = document.getElementById('live-status');
    live.textContent = text;
    live.className = 'live ' + (ok ? 'is-live' : 'is-offline');
  }

  // ---- tables ----
  function cell(row, text, className) {
    var td = document.createElement('td');
    td.textContent = text;
    if (className) td.className = className;
    row.appendChild(td);
    return td;
  }
  function fillTable(id, rows, columns, emptyText, decorate) {
    var body = document.querySelector('#' + id + ' tbody');
    var fragment = document.createDocumentFragment();
    if (rows.length === 0) {
      var empty = document.createElement('tr');
      empty.className = 'empty';
      var td = cell(empty, emptyText);
      td.colSpan = columns;
      fragment.appendChild(empty);
    }
    rows.forEach(function (row) {
      var tr = document.createElement('tr');
      decorate(tr, row);
      fragment.appendChild(tr);
    });
    body.replaceChildren(fragment);
  }

  function renderOperations(operations) {
    fillTable('operations', operations, 8, 'No requests yet.', function (tr, operation) {
      tr.dataset.operation = operation.operation;
      tr.dataset.method = operation.method;
      tr.tabIndex = 0;
      if (operation.operation === state.operation) tr.className = 'is-selected';
      cell(tr, operation.operation);
      cell(tr, operation.method);
      cell(tr, integer(operation.requests), 'number requests');
      cell(tr, integer(operation.errors), 'number errors' + (operation.errors > 0 ? ' bad' : ''));
      var codes = cell(tr, '', 'codes');
      Object.keys(operation.codes).sort().forEach(function (code) {
        var badge = document.createElement('span');
        badge.className = 'code';
        badge.dataset.code = code;
        badge.textContent = code + ' ' + integer(operation.codes[code]);
        codes.appendChild(badge);
      });
      cell(tr, millis(operation.p50), 'number');
      cell(tr, millis(operation.p99), 'number');
      cell(tr, operation.lastError === null ? '–' : operation.lastError.code + ' at ' + clock(operation.lastError.at), 'last-error');
    });
  }

  function renderDatabases(databases) {
    fillTable('databases', databases, 8, 'No database.', function (tr, database) {
      var health = state.health[database.name];
      var cache = database.statementCache;
      tr.dataset.database = database.name;
      cell(tr, database.name);
      cell(tr, database.dialect);
      var status = health === undefined ? 'checking…' : health.status;
      cell(tr, status, 'health ' + (status === 'ok' ? 'ok' : health === undefined ? '' : 'bad'));
      cell(tr, cache === null ? '–' : integer(cache.size) + ' / ' + integer(cache.capacity), 'number statements');
      cell(tr, cache === null ? '–' : percent(cache.hitRate), 'number hit-rate');
      cell(tr, cache === null ? '–' : integer(cache.hits), 'number');
      cell(tr, cache === null ? '–' : integer(cache.misses), 'number');
      cell(tr, cache === null ? '–' : integer(cache.evictions), 'number');
    });
  }

  function renderProcesses(processes) {
    fillTable('processes', processes, 9, 'No process reported yet.', function (tr, process) {
      tr.dataset.pid = String(process.pid);
      cell(tr, String(process.pid));
      cell(tr, process.role);
      cell(tr, megabytes(process.memory.rss), 'number');
      cell(tr, megabytes(process.memory.heapUsed), 'number');
      cell(tr, process.cpuPercent === null ? '–' : percent(process.cpuPercent), 'number');
      cell(tr, millis(process.eventLoop.p99), 'number');
      cell(tr, millis(process.eventLoop.max), 'number');
      cell(tr, integer(process.inFlight), 'number');
      cell(tr, duration(process.uptime), 'number');
    });
  }

  function renderSummary(summary) {
    state.summary = summary;
    var window_ = summary.window;
    document.getElementById('requests-per-second').textContent = rate(window_.requestsPerSecond);
    var errorRate = document.getElementById('error-rate');
    errorRate.textContent = percent(window_.errorRate);
    errorRate.classList.toggle('is-bad', window_.serverErrorRate !== null && window_.serverErrorRate > 0);
    errorRate.nextElementSibling.textContent = 'status ≥ 400 · 5xx ' + percent(window_.serverErrorRate === null ? 0 : window_.serverErrorRate);
    document.getElementById('p50').textContent = millis(window_.latency.p50);
    document.getElementById('p95').textContent = millis(window_.latency.p95);
    document.getElementById('p99').textContent = millis(window_.latency.p99);
    document.getElementById('in-flight').textContent = integer(summary.inFlight);
    document.getElementById('operations-since').textContent = 'since ' + clock(summary.startedAt);
    renderOperations(summary.operations);
    renderDatabases(summary.databases);
    renderProcesses(summary.processes);
    var history = summary.history;
    document.getElementById('history-status').textContent =
      'History: ' + history.file + ' (' + history.status + '), per minute, kept ' + history.historyDays + (history.historyDays === 1 ? ' day' : ' days') + '.';
  }

  // ---- charts ----
  var CHARTS = [
    {
      id: 'chart-throughput',
      series: [
        { label: 'Requests/s', column: 'requestsPerSecond', stroke: '#2563eb', format: rate, scale: 'y' },
        { label: 'Errors', column: 'errorRate', stroke: '#dc2626', format: percent, scale: '%' },
      ],
      axes: [{ scale: 'y' }, { scale: '%', side: 1, grid: { show: false }, values: function (u, values) { return values.map(function (v) { return v + '%'; }); } }],
    },
    {
      id: 'chart-latency',
      series: [
        { label: 'p50', column: 'p50', stroke: '#16a34a', format: millis, scale: 'y' },
        { label: 'p95', column: 'p95', stroke: '#ca8a04', format: millis, scale: 'y' },
        { label: 'p99', column: 'p99', stroke: '#dc2626', format: millis, scale: 'y' },
      ],
      axes: [{ scale: 'y' }],
    },
    {
      id: 'chart-memory',
      series: [
        { label: 'RSS', column: 'rss', stroke: '#7c3aed', format: megabytes, scale: 'y', toChart: toMegabytes },
        { label: 'Heap used', column: 'heapUsed', stroke: '#0891b2', format: megabytes, scale: 'y', toChart: toMegabytes },
      ],
      axes: [{ scale: 'y' }],
    },
    {
      id: 'chart-cpu',
      series: [
        { label: 'CPU', column: 'cpuPercent', stroke: '#ea580c', format: percent, scale: 'y' },
        { label: 'Event loop p99', column: 'eventLoopP99', stroke: '#64748b', format: millis, scale: 'ms' },
      ],
      axes: [{ scale: 'y', values: function (u, values) { return values.map(function (v) { return v + '%'; }); } }, { scale: 'ms', side: 1, grid: { show: false } }],
    },
  ];

  /** A value with no value beside it draws no line: uPlot shows it as a dot instead. */
  function isolatedPoints(u, seriesIndex) {
    var data = u.data[seriesIndex];
    var indexes = [];
    for (var index = 0; index < data.length; index++) {
      var alone = (index === 0 || data[index - 1] === null) && (index === data.length - 1 || data[index + 1] === null);
      if (data[index] !== null && alone) indexes.push(index);
    }
    return indexes;
  }

  function toMegabytes(value) {
    return value === null ? null : value / 1048576;
  }

  function chartWidth(element) {
    return Math.max(280, element.clientWidth);
  }

  function createChart(definition, data) {
    var element = document.getElementById(definition.id);
    var series = [{}].concat(
      definition.series.map(function (each) {
        return {
          label: each.label,
          stroke: each.stroke,
          width: 2,
          scale: each.scale,
          spanGaps: false,
          points: { show: true, size: 5, filter: isolatedPoints },
          value: function (u, value) {
            return value === null || value === undefined ? '–' : each.toChart ? each.format(value * 1048576) : each.format(value);
          },
        };
      }),
    );
    var scales = { x: { time: true } };
    definition.series.forEach(function (each) {
      scales[each.scale] = { auto: true, range: function (u, min, max) { return [0, max > 0 ? max * 1.1 : 1]; } };
    });
    var axes = [{}].concat(definition.axes.map(function (axis) { return Object.assign({ size: 56 }, axis); }));
    return new uPlot({ width: chartWidth(element), height: 200, series: series, scales: scales, axes: axes, cursor: { drag: { x: false, y: false } } }, data, element);
  }

  function chartData(definition, series) {
    return [series.time].concat(
      definition.series.map(function (each) {
        var column = series[each.column];
        return each.toChart ? column.map(each.toChart) : column;
      }),
    );
  }

  function renderSeries(series) {
    CHARTS.forEach(function (definition) {
      var data = chartData(definition, series);
      var chart = state.charts[definition.id];
      if (chart === undefined) state.charts[definition.id] = createChart(definition, data);
      else chart.setData(data);
    });
  }

  function loadSeries() {
    var path = 'api/series?range=' + encodeURIComponent(state.range) + (state.operation === null ? '' : '&operation=' + encodeURIComponent(state.operation));
    var asked = path;
    return get(path).then(function (series) {
      var current = 'api/series?range=' + encodeURIComponent(state.range) + (state.operation === null ? '' : '&operation=' + encodeURIComponent(state.operation));
      if (asked === current) renderSeries(series); // a click since then asked for another range
    });
  }

  function chooseOperation(operation) {
    state.operation = operation;
    document.getElementById('chart-scope').textContent = operation === null ? 'All operations' : 'Operation ' + operation;
    document.getElementById('chart-all').hidden = operation === null;
    document.querySelectorAll('#operations tbody tr').forEach(function (row) {
      row.classList.toggle('is-selected', row.dataset.operation === operation);
    });
    loadSeries().catch(function () {});
  }

  // ---- wiring ----
  document.querySelectorAll('[data-range]').forEach(function (button) {
    button.addEventListener('click', function () {
      state.range = button.dataset.range;
      document.querySelectorAll('[data-range]').forEach(function (other) {
        other.setAttribute('aria-selected', String(other === button));
      });
      loadSeries().catch(function () {});
    });
  });
  document.getElementById('chart-all').addEventListener('click', function () {
    chooseOperation(null);
  });
  var operationsBody = document.querySelector('#operations tbody');
  function rowOperation(event) {
    var row = event.target.closest('tr[data-operation]');
    return row === null ? null : row.dataset.operation;
  }
  operationsBody.addEventListener('click', function (event) {
    var operation = rowOperation(event);
    if (operation !== null) chooseOperation(operation);
  });
  operationsBody.addEventListener('keydown', function (event) {
    var operation = rowOperation(event);
    if (operation !== null && event.key === 'Enter') chooseOperation(operation);
  });
  window.addEventListener('resize', function () {
    CHARTS.forEach(function (definition) {
      var chart = state.charts[definition.id];
      if (chart !== undefined) chart.setSize({ width: chartWidth(document.getElementById(definition.id)), height: 200 });
    });
  });

  function loadSummary() {
    return get('api/summary').then(
      function (summary) {
        renderSummary(summary);
        setLive(true, 'live · updated ' + clock(summary.generatedAt));
      },
      function (error) {
        if (error.message !== 'signed out') setLive(false, 'no answer from the dashboard');
      },
    );
  }

  function loadDatabases() {
    return get('api/databases').then(function (answer) {
      answer.databases.forEach(function (database) {
        state.health[database.name] = database;
      });
      if (state.summary !== null) renderDatabases(state.summary.databases);
    });
  }

  // Each loop waits for its answer before scheduling the next, so a slow server is never asked twice at once.
  function every(ms, load) {
    function run() {
      load()
        .catch(function () {})
        .then(function () {
          setTimeout(run, typeof ms === 'function' ? ms() : ms);
        });
    }
    run();
  }
  every(config.refreshMs, loadSummary);
  every(DATABASES_REFRESH_MS, loadDatabases);
  every(function () { return SERIES_REFRESH_MS[state.range]; }, loadSeries);
})();
