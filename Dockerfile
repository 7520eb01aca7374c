# taugen in a container: `docker build -t taugen .` then, in a project folder,
#   docker run --rm -v "$PWD:/work" taugen build --check
# Two stages: the wheel is built with the build tools, the image holds only the installed
# package, runs as a user without privileges, and has `taugen` as its entrypoint.
FROM python:3.12-slim AS build
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY taugen ./taugen
COPY schemas ./schemas
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

FROM python:3.12-slim
RUN useradd --create-home --uid 10001 taugen
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER 10001
WORKDIR /work
ENTRYPOINT ["taugen"]
CMD ["--help"]
