// The dashboard's sign-in form: sends the token typed as `Authorization: Bearer` to `session` (a GET: the
// dashboard is read-only), which answers 204 with the session cookie when the token is valid.
(function () {
  'use strict';
  var form = document.getElementById('sign-in');
  var input = document.getElementById('token');
  var problem = document.getElementById('sign-in-error');

  function show(message) {
    problem.textContent = message;
    problem.hidden = false;
    input.select();
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    problem.hidden = true;
    var answer;
    try {
      answer = fetch('session', { credentials: 'same-origin', cache: 'no-store', headers: { Authorization: 'Bearer ' + input.value.trim() } });
    } catch (error) {
      show('That token is not valid.'); // a character a header cannot carry
      return;
    }
    answer
      .then(function (response) {
        // Read the (empty) answer to its end before leaving the page: leaving while it still arrives cancels it.
        return response.arrayBuffer().then(function () {
          return response.status;
        });
      })
      .then(
        function (status) {
          if (status === 204) window.location.replace('./');
          else show('That token is not valid.');
        },
        function () {
          show('The dashboard did not answer.');
        },
      );
  });
})();
