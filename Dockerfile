# skillc in a distroless static image: a statically linked binary (pure Go,
# CGO off) and nothing else.
#
#   docker build -t skillc .
#   docker run --rm -v "$PWD:/work" -w /work skillc check .
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o /out/skillc ./cmd/skillc

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/skillc /usr/local/bin/skillc
COPY LICENSE /usr/share/doc/skillc/LICENSE
ENV SKILLSCRIPT_HOME=/tmp/.skillscript
ENTRYPOINT ["/usr/local/bin/skillc"]
CMD ["--help"]
