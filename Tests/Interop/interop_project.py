"""The project the interop suite serves and the API key its REST calls send. A module of its own
(not conftest), so that `pytest Tests/Interop Tests/EndToEnd` imports these and not the other suite's conftest."""
PROJECT_ID = "authdeck-interop"
API_KEY = "interop-api-key"
