// Browser script of the reference page: the APIs tab mounts Scalar on the chosen OpenAPI document, the
// Docs tab lists the documentation pages and shows the chosen one. State lives in ?tab=&api=&page=.
'use strict';
(function () {
  var config = JSON.parse(document.getElementById('tessera-page-config').textContent);
  var header = document.querySelector('.tessera-header');
  var tabs = document.querySelectorAll('.tessera-tabs [data-tab]');
  var apiList = document.querySelector('.tessera-apis');
  var panels = { apis: document.getElementById('tessera-apis-panel'), docs: document.getElementById('tessera-docs-panel') };
  var docsNav = document.querySelector('.tessera-docs-nav');
  var article = document.querySelector('.tessera-doc');
  var reference = null;
  var shownApi = -1;

  function readState() {
    var query = new URLSearchParams(location.search);
    var api = Number(query.get('api'));
    return {
      tab: query.get('tab') === 'docs' ? 'docs' : 'apis',
      api: api >= 0 && api < config.apis.length ? Math.floor(api) : 0,
      page: query.get('page'),
    };
  }

  function writeState(state) {
    var query = new URLSearchParams();
    query.set('tab', state.tab);
    if (state.tab === 'apis') query.set('api', String(state.api));
    if (state.tab === 'docs' && state.page) query.set('page', state.page);
    // Scalar keeps its own position in the hash; keep it unless the document changes.
    history.pushState(null, '', '?' + query.toString() + (state.keepHash ? location.hash : ''));
  }

  // Scalar's sticky parts sit below this page's header.
  function fitScalarBelowHeader() {
    document.documentElement.style.setProperty('--scalar-custom-header-height', header.offsetHeight + 'px');
  }

  function showApi(index) {
    apiList.querySelectorAll('button').forEach(function (button, i) {
      button.setAttribute('aria-pressed', String(i === index));
    });
    if (index === shownApi) return;
    shownApi = index;
    if (reference !== null) reference.destroy();
    var container = document.getElementById('tessera-api-reference');
    container.replaceChildren();
    var mount = document.createElement('div');
    container.appendChild(mount);
    var api = config.apis[index];
    var scalar = Object.assign({}, config.scalar, { url: api.url, title: api.name, metaData: { title: api.name } });
    reference = window.Scalar.createApiReference(mount, scalar);
  }

  function link(text, href, onClick) {
    var anchor = document.createElement('a');
    anchor.textContent = text;
    anchor.href = href;
    anchor.addEventListener('click', function (event) {
      event.preventDefault();
      onClick();
    });
    return anchor;
  }

  function showMessage(text) {
    var paragraph = document.createElement('p');
    paragraph.className = 'tessera-doc-message';
    paragraph.textContent = text;
    article.replaceChildren(paragraph);
  }

  function showDoc(slug) {
    if (config.docs === null) return showMessage('This server has no documentation folder: set the documentation option of createServer.');
    if (config.docs.length === 0) return showMessage('The documentation folder has no .md or .mdx files yet.');
    var page = config.docs.find(function (entry) { return entry.slug === slug; }) || config.docs[0];
    docsNav.querySelectorAll('a').forEach(function (anchor) {
      if (anchor.dataset.slug === page.slug) anchor.setAttribute('aria-current', 'page');
      else anchor.removeAttribute('aria-current');
    });
    article.setAttribute('aria-busy', 'true');
    fetch(config.base + '/docs/page?slug=' + encodeURIComponent(page.slug), { headers: { accept: 'application/json' } })
      .then(function (response) {
        if (!response.ok) throw new Error('the server answered ' + response.status);
        return response.json();
      })
      .then(function (rendered) {
        if (rendered.html === null) return showMessage('This page could not be rendered: ' + rendered.error);
        // Rendered on the server from the application's own documentation folder.
        article.innerHTML = rendered.html;
        article.dataset.slug = rendered.slug;
        document.title = rendered.title + ' · ' + config.apis[0].name;
      })
      .catch(function (error) {
        showMessage('This page could not be loaded: ' + error.message);
      })
      .finally(function () {
        article.removeAttribute('aria-busy');
      });
  }

  function render() {
    var state = readState();
    tabs.forEach(function (tab) {
      tab.setAttribute('aria-selected', String(tab.dataset.tab === state.tab));
    });
    panels.apis.hidden = state.tab !== 'apis';
    panels.docs.hidden = state.tab !== 'docs';
    apiList.hidden = state.tab !== 'apis';
    fitScalarBelowHeader();
    if (state.tab === 'apis') {
      document.title = config.apis[state.api].name;
      showApi(state.api);
    } else {
      showDoc(state.page);
    }
  }

  config.apis.forEach(function (api, index) {
    var button = document.createElement('button');
    button.type = 'button';
    button.textContent = api.name;
    button.addEventListener('click', function () {
      writeState({ tab: 'apis', api: index, keepHash: false });
      render();
    });
    apiList.appendChild(button);
  });

  (config.docs || []).forEach(function (page) {
    var anchor = link(page.title, '?tab=docs&page=' + encodeURIComponent(page.slug), function () {
      writeState({ tab: 'docs', page: page.slug });
      render();
    });
    anchor.dataset.slug = page.slug;
    docsNav.appendChild(anchor);
  });

  tabs.forEach(function (tab) {
    tab.addEventListener('click', function () {
      var state = readState();
      writeState({ tab: tab.dataset.tab, api: state.api, page: state.page, keepHash: tab.dataset.tab === 'apis' });
      render();
    });
  });

  window.addEventListener('popstate', render);
  window.addEventListener('resize', fitScalarBelowHeader);
  render();
})();
